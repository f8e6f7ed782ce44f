// AISBench colours its exception text with ANSI codes; the engine keeps them (the goldens compare the raw text),
// but the problems people read in the app, the CLI and exports must not show `\x1b[1m` (issue #10, item 10).
import { describe, expect, it } from 'vitest'
import { isEngineError, preparePipeline, stripAnsi } from '../../../shared/engine'
import { engineProblem } from '../../../main/services/workspace/model-render'
import { input } from '../engine/helpers'

// A fix-k retriever pointing past the train set fails in AISBench with a coloured ICLR-PARAM-004.
const failing = () =>
  preparePipeline(
    input({
      family: 'aisbench',
      train: [{ question: 't', answer: 'a' }],
      infer_cfg: {
        ice_template: { type: 'PromptTemplate', template: '</E>{question}' },
        prompt_template: { type: 'PromptTemplate', template: '</E>{question}', ice_token: '</E>' },
        retriever: { type: 'FixKRetriever', fix_id_list: [5] },
        inferencer: { type: 'GenInferencer' }
      }
    })
  )

describe('ANSI codes in upstream messages', () => {
  it('the engine keeps upstream text byte for byte, colours included', () => {
    const e = failing()
    expect(isEngineError(e)).toBe(true)
    if (isEngineError(e)) expect(e.message).toContain('\u001b[1m')
  })

  it('the problem shown to people has none', () => {
    const e = failing()
    if (!isEngineError(e)) throw new Error('expected an engine error')
    const p = engineProblem(e, 'error')
    expect(p.message).not.toMatch(/\u001b/)
    expect(p.message).toContain('[ICLR-PARAM-004]')
    expect(p.message).toContain('for further help.')
  })

  it('strips every CSI and OSC sequence, not only colours', () => {
    expect(stripAnsi('a\u001b[2Jb\u001b[10;5Hc\u001b]0;title\u0007d\u001b[1;31me\u001b[0m')).toBe('abcde')
  })
})
