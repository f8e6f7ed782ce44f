// Spans must add up to the exact output for every golden case, and turning them off must change nothing else.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  applyMetaTemplate,
  buildPromptList,
  parsePyJson,
  preparePipeline,
  renderRow,
  toItem
} from '../../../shared/engine'
import { toModelInput } from '../../../shared/engine/messages'
import { runsToSegments, sLit, toSegments, type SStr } from '../../../shared/engine/spanned'
import type { Family, ModelInput, Prompt, RenderedPrompt, RenderedRow, Segment } from '../../../shared/engine'
import { CASES_DIR } from '../../support/shared-dir'
import { casePipelineInput, type EngineCaseInput, type ParseCaseInput, type PipelineCaseInput } from '../../../shared/conformance/engine-case'

type GoldenCase<I> = { id: string; family: Family; input: I }

const DIR = CASES_DIR
const cases = ['opencompass.jsonl', 'aisbench.jsonl'].flatMap((f) =>
  readFileSync(`${DIR}/${f}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => parsePyJson(l) as GoldenCase<EngineCaseInput>)
)

const joined = (segs: Segment[] | undefined): string | undefined => segs?.map((s) => s.text).join('')

/** Every text beside its segments, as [what the segments give, the text]. */
function promptPairs(p: RenderedPrompt | undefined): Array<[string | undefined, string]> {
  if (!p) return []
  if (typeof p.json === 'string') return [[joined(p.segments), p.json]]
  const items = p.json as unknown[]
  return (p.itemSegments ?? []).flatMap((segs, i): Array<[string | undefined, string]> => {
    if (segs === null) return []
    const it = items[i]
    const text =
      typeof it === 'string' ? it : ((it as Record<string, unknown>).prompt ?? (it as Record<string, unknown>).content)
    return [[joined(segs), String(text)]]
  })
}

function inputPairs(m: ModelInput | undefined): Array<[string | undefined, string]> {
  if (!m || m.kind === 'parts') return []
  if (m.kind === 'text') return [[joined(m.segments), m.text]]
  return m.items.flatMap(
    (it): Array<[string | undefined, string]> =>
      'raw' in it || it.segments === undefined ? [] : [[joined(it.segments), String(it.prompt)]]
  )
}

function rowPairs(r: RenderedRow): Array<[string | undefined, string]> {
  return r.items.flatMap((it) => [
    ...promptPairs(it.promptList),
    ...inputPairs(it.modelInput),
    ...(it.turns ?? []).flatMap((t) => inputPairs(t.modelInput))
  ])
}

/** The row without segments: what must be identical with spans on and off. */
function withoutSpans(r: RenderedRow): unknown {
  return JSON.parse(
    JSON.stringify(r, (k, v) =>
      k === 'segments' || k === 'itemSegments' ? undefined : typeof v === 'bigint' ? Number(v) : v
    )
  )
}

const pipelines = cases.filter((c): c is GoldenCase<PipelineCaseInput> => c.input.kind !== 'parse')
const parses = cases.filter((c): c is GoldenCase<ParseCaseInput> => c.input.kind === 'parse')

describe('segments concatenate to the exact rendered text (golden pipeline cases)', () => {
  it.each(pipelines.map((c) => [c.id as string, c] as const))('%s', (_id, c) => {
    const p = preparePipeline(casePipelineInput(c.family, c.input))
    if ('code' in p) return // a preparation error has no text to check
    for (let i = 0; i < p.test.length; i++) {
      for (const [fromSegments, text] of rowPairs(renderRow(p, i))) expect(fromSegments).toBe(text)
    }
  })
})

it('checks texts in most golden pipeline cases (the table above is not vacuous)', () => {
  const checked = pipelines.filter((c) => {
    const p = preparePipeline(casePipelineInput(c.family, c.input))
    return !('code' in p) && p.test.some((_, i) => rowPairs(renderRow(p, i)).length > 0)
  })
  expect(checked.length).toBeGreaterThan(pipelines.length * 0.7)
})

describe('segments concatenate to the exact rendered text (golden parse cases)', () => {
  it.each(parses.map((c) => [c.id as string, c] as const))('%s', (_id, c) => {
    const pl = c.input.prompt_list
    const prompt: Prompt =
      typeof pl === 'string'
        ? sLit(pl, { kind: 'template' })
        : (pl as unknown[]).map((x, i) => toItem(x, `prompt_list[${i}]`))
    const r = applyMetaTemplate(prompt, c.input.meta_template, {
      parser: c.input.parser,
      mode: c.input.mode,
      family: c.family,
      row: 0
    })
    if (!r.parsed) return
    for (const [fromSegments, text] of inputPairs(toModelInput(r.parsed))) expect(fromSegments).toBe(text)
  })
})

describe('spans: false leaves out segments and changes nothing else (golden pipeline cases)', () => {
  it.each(pipelines.map((c) => [c.id as string, c] as const))('%s', (_id, c) => {
    const input = casePipelineInput(c.family, c.input)
    const on = preparePipeline(input)
    const off = preparePipeline(input)
    if ('code' in on || 'code' in off) return
    for (let i = 0; i < on.test.length; i++) {
      const a = renderRow(on, i)
      const b = renderRow(off, i, { spans: false })
      expect(rowPairs(b).every(([s]) => s === undefined)).toBe(true)
      expect(withoutSpans(b)).toEqual(withoutSpans(a))
    }
  })
})

describe('results remembered across rows never leak into another row (golden pipeline cases)', () => {
  it.each(pipelines.map((c) => [c.id as string, c] as const))(
    '%s: rows rendered backwards match rows rendered forwards',
    (_id, c) => {
      const input = casePipelineInput(c.family, c.input)
      const fwd = preparePipeline(input)
      const bwd = preparePipeline(input)
      if ('code' in fwd || 'code' in bwd) return
      const n = fwd.test.length
      const a = Array.from({ length: n }, (_, i) => withoutSpans(renderRow(fwd, i, { spans: false })))
      const b = Array.from({ length: n }, (_, i) => withoutSpans(renderRow(bwd, n - 1 - i))).reverse()
      expect(b).toEqual(a)
    }
  )
})

describe('segments joined from remembered parts equal segments made from the runs (golden pipeline cases)', () => {
  it.each(pipelines.map((c) => [c.id as string, c] as const))('%s', (_id, c) => {
    const input = casePipelineInput(c.family, c.input)
    const p = preparePipeline(input)
    if ('code' in p) return
    for (let i = 0; i < p.test.length; i++) {
      for (const b of buildPromptList(p, i).items) {
        const r = applyMetaTemplate(b.prompt, input.meta_template, {
          parser: input.parser,
          mode: input.mode,
          family: input.family,
          row: i
        })
        const texts: SStr[] = []
        if (r.parsed?.kind === 'text') texts.push(r.parsed.s)
        if (r.parsed?.kind === 'messages')
          for (const m of r.parsed.items) if (m.t === 'msg' && m.prompt) texts.push(m.prompt)
        for (const s of texts) expect(toSegments(s)).toEqual(runsToSegments(s))
      }
    }
  })
})
