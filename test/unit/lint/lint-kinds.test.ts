// Each finding kind, from rows made in the test, through the path the app and `promptloom lint` take.
import { afterAll, describe, expect, it } from 'vitest'
import { CHATML, cleanup, group, hfProfile, lintProject } from './helpers'

afterAll(cleanup)

const q = (question: string, answer = 'yes', extra: Record<string, unknown> = {}) => ({ question, answer, ...extra })
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')

describe('model-side kinds (signals of the matrix)', () => {
  it('double BOS', async () => {
    const { report } = await lintProject({ test: [q('hi'), q('ho')], models: [hfProfile('bos', `{{ bos_token }}{{ bos_token }}` + CHATML, { special_tokens: { bos_token: '<s>' } })] })
    const g = group(report, 'double-bos', 'bos')!
    expect([g.count, g.severity]).toEqual([2, 'error'])
  })

  it('empty turn', async () => {
    const { report } = await lintProject({ test: [q('   '), q('fine')], models: [hfProfile('m', CHATML)] })
    const g = group(report, 'empty-turn', 'm')!
    expect(g.examples.map((e) => e.row)).toEqual([0])
  })

  it('unfilled {field}', async () => {
    const { report } = await lintProject({ test: [q('What is {x}?')], models: [hfProfile('m', CHATML)] })
    expect(group(report, 'unfilled-field', 'm')?.examples[0].message).toMatch(/\{x\}/)
  })

  it('template error with its position', async () => {
    const { report } = await lintProject({ test: [q('hi')], models: [hfProfile('broken', `{{ raise_exception('boom') }}`)] })
    const g = group(report, 'template-error', 'broken')!
    expect(g.severity).toBe('error')
    expect(g.examples[0].message).toMatch(/boom/)
  })

  it('template error of the dataset side names its stage and place', async () => {
    const { report } = await lintProject({
      test: [q('hi'), q('ho')],
      iceTemplate: "dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])",
      template: "dict(begin='</E>', round=[dict(role='HUMAN', prompt='{question}')])",
      fixK: [7]
    })
    const g = group(report, 'template-error', null)!
    expect(g.count).toBe(2)
    expect(g.examples[0].message).toMatch(/IndexError|out of range/)
  })

  it('over the context length', async () => {
    const { report } = await lintProject({ test: [q('short'), q('a question long enough to pass the tiny context of this model '.repeat(4))], models: [hfProfile('tiny', CHATML, { context_length: 40 })] })
    expect(group(report, 'over-context', 'tiny')?.examples.map((e) => e.row)).toEqual([1])
  })

  it('what the template added', async () => {
    const qwenLike = `{% if messages[0].role != 'system' %}{{ '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}{% endif %}` + CHATML
    const { report } = await lintProject({ test: [q('hi')], models: [hfProfile('qwenish', qwenLike)] })
    expect(group(report, 'added-default-system', 'qwenish')?.severity).toBe('info')
    expect(group(report, 'added-generation-prompt', 'qwenish')?.count).toBe(1)
  })

  it('groups each model separately', async () => {
    const { report } = await lintProject({ test: [q('hi')], models: [hfProfile('a', `{{ bos_token }}{{ bos_token }}` + CHATML, { special_tokens: { bos_token: '<s>' } }), hfProfile('b', CHATML)] })
    expect(group(report, 'double-bos', 'a')?.count).toBe(1)
    expect(group(report, 'double-bos', 'b')).toBeUndefined()
  })
})

describe('media', () => {
  it('missing media file', async () => {
    const { report } = await lintProject({ test: [q('hi', 'yes', { image: 'media/gone.png' })] })
    expect(group(report, 'media-missing')?.examples[0]).toMatchObject({ row: 0, at: { field: 'image' } })
  })

  it('media outside the opened folders is refused', async () => {
    const { report } = await lintProject({ test: [q('hi', 'yes', { image: '/etc/../etc/hostname.png' })] })
    expect(group(report, 'media-refused')?.count).toBe(1)
  })

  it('unreadable media: bytes of no known format', async () => {
    const { report } = await lintProject({ test: [q('hi', 'yes', { image: 'media/fake.png' }), q('ok', 'yes', { image: 'media/real.png' })], files: { 'media/fake.png': 'not an image at all', 'media/real.png': PNG } })
    expect(group(report, 'media-unreadable')?.examples.map((e) => e.row)).toEqual([0])
  })

  it('oversized media', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(21 * 1024 * 1024)])
    const { report } = await lintProject({ test: [q('hi', 'yes', { image: 'media/big.png' })], files: { 'media/big.png': big } })
    expect(group(report, 'media-oversized')?.examples[0].message).toMatch(/MB image, over 20\.0 MB/)
  })
})

describe('whole-set dataset checks', () => {
  it('exact duplicate prompts', async () => {
    const { report } = await lintProject({ test: [q('What is 2+2?'), q('What is 3+3?'), q('What is 2+2?')] })
    const g = group(report, 'duplicate-prompt')!
    expect(g.examples.map((e) => e.row)).toEqual([0, 2])
  })

  it('near-duplicate prompts', async () => {
    const { report } = await lintProject({
      test: [q('Which planet in the solar system is the largest one by mass?'), q('which planet in the solar system is the largest one, by mass'), q('Name a mammal that lays eggs and lives in Australia.')]
    })
    expect(group(report, 'near-duplicate-prompt')?.examples.map((e) => e.row)).toEqual([0, 1])
    expect(group(report, 'duplicate-prompt')).toBeUndefined()
  })

  it('near duplicates need the same media', async () => {
    const { report } = await lintProject({
      test: [q('What colour is the object in this picture, exactly?', 'red', { image: 'media/a.png' }), q('What colour is the object in this picture exactly?', 'blue', { image: 'media/b.png' })],
      files: { 'media/a.png': PNG, 'media/b.png': PNG }
    })
    expect(group(report, 'near-duplicate-prompt')).toBeUndefined()
  })

  it('gold answer leaking into the prompt', async () => {
    const { report } = await lintProject({
      test: [q('Capital of France? (hint: Paris)', 'Paris'), q('Capital of Italy?', 'Rome'), q('Pick one. Answer: B', 'B')],
      inputColumns: ['question']
    })
    expect(group(report, 'gold-leak')?.examples.map((e) => e.row)).toEqual([0, 2])
  })

  it('a multiple-choice option equal to the answer text is not a leak', async () => {
    const rows = [{ question: 'Largest?', A: 'Cat', B: 'Whale', answer: 'B' }]
    const { report } = await lintProject({ test: rows, inputColumns: ['question', 'A', 'B'], template: "'{question}\\nA. {A}\\nB. {B}\\nAnswer:'" })
    expect(group(report, 'gold-leak')).toBeUndefined()
  })

  it('empty or whitespace-only fields', async () => {
    const { report } = await lintProject({ test: [q('fine'), q(' \t\n'), { question: 'no answer' }], models: [hfProfile('m', CHATML)] })
    const g = group(report, 'empty-field')!
    expect(g.examples.map((e) => [e.row, e.message])).toEqual([
      [1, 'question empty'],
      [2, 'answer missing']
    ])
  })

  it('answer-label balance of a multiple-choice set', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ question: `Question number ${i}?`, A: 'x', B: 'y', C: 'z', D: 'w', answer: i < 9 ? 'A' : 'BCD'[i - 9] }))
    const { report } = await lintProject({ test: rows, inputColumns: ['question', 'A', 'B', 'C', 'D'], template: "'{question} {A} {B} {C} {D}'" })
    const g = group(report, 'label-imbalance')!
    expect(g.count).toBe(9)
    expect(g.examples[0].message).toMatch(/answer A: 9 of 12 rows \(A 9, B 1, C 1, D 1\)/)
  })

  it('a balanced multiple-choice set is not flagged', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ question: `Question number ${i}?`, A: 'x', B: 'y', C: 'z', D: 'w', answer: 'ABCD'[i % 4] }))
    const { report } = await lintProject({ test: rows, inputColumns: ['question', 'A', 'B', 'C', 'D'], template: "'{question} {A} {B} {C} {D}'" })
    expect(group(report, 'label-imbalance')).toBeUndefined()
  })

  it('in-context examples that are also test rows', async () => {
    const { report } = await lintProject({
      test: [q('What is the boiling point of water at sea level?', '100 C'), q('What is the freezing point of water?', '0 C')],
      train: [q('What is the freezing point of water?', '0 C'), q('How many legs has a spider?', '8')],
      iceTemplate: "dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])",
      template: "dict(begin='</E>', round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])",
      fixK: [0, 1]
    })
    expect(group(report, 'example-in-test')?.examples).toEqual([{ row: 1, message: 'same input as train row 0, used as an in-context example' }])
  })
})

describe("OpenCompass's max_seq_len truncation of in-context examples", () => {
  const META = { round: [{ role: 'HUMAN', begin: '<u>', end: '</u>' }, { role: 'BOT', begin: '<b>', end: '</b>', generate: true }] }
  const metaProfile = (max: number) => ({ id: 'oc', name: 'oc', family: 'test', format: 'opencompass-meta', meta_template: META, context_length: 100_000, max_seq_len: max, tokenizer: { kind: 'estimate', chars_per_token: 1 } })
  const long = (k: number) => q(`Example question number ${k} ` + 'x'.repeat(80), `a${k}`)
  const project = (test: ReturnType<typeof q>[], max: number) => ({
    test,
    train: [long(0), long(1), long(2)],
    iceTemplate: "dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])",
    template: "dict(begin='</E>', round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])",
    fixK: [0, 1, 2],
    models: [metaProfile(max)]
  })

  it('drops examples from the end until the prompt fits, and the model gets that prompt ("3 → 1 examples")', async () => {
    const { report, ws } = await lintProject(project([q('short?')], 250))
    const g = group(report, 'examples-truncated', 'oc')!
    expect(g.examples[0].message).toMatch(/max_seq_len=250: 3 → 1 examples/)
    expect(report.truncation).toEqual([{ model: 'oc', maxSeqLen: 250, rows: 1, truncated: 1, noneFit: 0, retrieved: 3, minKept: 1 }])
    const r = await ws.render.row({ index: 0, variantId: 't', modelIds: ['oc'] })
    expect(r.models[0].examples).toEqual({ retrieved: 3, kept: 1, maxSeqLen: 250 })
    expect(r.models[0].text).toContain('Example question number 0')
    expect(r.models[0].text).not.toContain('Example question number 1')
    expect(r.models[0].text!.length).toBeLessThanOrEqual(250)
  })

  it('keeps every example when the prompt fits', async () => {
    const { report } = await lintProject(project([q('short?')], 10_000))
    expect(group(report, 'examples-truncated', 'oc')).toBeUndefined()
    expect(report.truncation[0]).toMatchObject({ truncated: 0, minKept: 3 })
  })

  it('flags rows that do not fit even with zero examples', async () => {
    const { report } = await lintProject(project([q('short?'), q('y'.repeat(400))], 250))
    expect(group(report, 'examples-none-fit', 'oc')?.examples.map((e) => e.row)).toEqual([1])
    expect(report.truncation[0]).toMatchObject({ truncated: 2, noneFit: 1, minKept: 0 })
  })
})
