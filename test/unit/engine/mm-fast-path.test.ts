// The per-row fast paths must not change a byte: AIS format_mm (content read in place, part plans made once)
// against a plain Python-semantics reference on random contents and templates, and the meta template that
// applyMetaTemplate remembers per object against a fresh build on every call.
import { describe, expect, it } from 'vitest'
import { applyMetaTemplate, buildPromptList, renderRow } from '../../../shared/engine'
import type { PipelineInput, Prompt } from '../../../shared/engine'
import { prep } from './helpers'

const SEP = '<AIS_CONTENT_TAG>'
const TAGS: Array<[string, string, string]> = [
  ['<AIS_TEXT_START>', 'text', 'text'],
  ['<AIS_IMAGE_START>', 'image', 'image_url'],
  ['<AIS_VIDEO_START>', 'video', 'video_url'],
  ['<AIS_AUDIO_START>', 'audio', 'audio_url']
]

/** A small seeded PRNG (mulberry32), so a failing case can be rerun. */
function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <T,>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]

const replaceAll = (s: string, key: string, v: string): string => s.split(`{${key}}`).join(v)

/**
 * PromptList.format_mm as upstream writes it: split on the content tag; a text segment deep-copies
 * prompt_mm['text'] and fills {question}; a media segment deep-copies prompt_mm[kind] and fills its url.
 */
function referenceParts(pm: Record<string, any>, content: string): unknown[] | { error: string } {
  const parts: unknown[] = []
  for (const seg of content.split(SEP)) {
    const tag = TAGS.find(([t]) => seg.startsWith(t))
    if (!tag) continue
    const [t, key, urlKey] = tag
    const value = seg.slice(t.length)
    if (!(key in pm)) return { error: `KeyError: '${key}'` }
    if (key === 'text') {
      const c = structuredClone(pm.text)
      c.text = replaceAll(c.text, 'question', value)
      parts.push(c)
      continue
    }
    const c = structuredClone(pm[key])
    if (c[urlKey] !== null && typeof c[urlKey] === 'object') c[urlKey].url = replaceAll(c[urlKey].url, key, value)
    else c[urlKey] = replaceAll(c[urlKey], key, value)
    parts.push(c)
  }
  return parts
}

const TEXTS = [{ type: 'text', text: '{question}' }, { type: 'text', text: 'Q: {question} / {question}!' }, { type: 'text', text: 'no placeholder' }, { type: 'text', text: '{question}', meta: { keep: [1, 2] } }]
const media = (key: string, urlKey: string): Array<Record<string, unknown>> => [
  { type: urlKey, [urlKey]: { url: `{${key}}` } },
  { type: urlKey, [urlKey]: `data:{${key}}` },
  { type: urlKey, [urlKey]: { url: `file://{${key}}?v={${key}}`, detail: 'high' } },
  { type: urlKey, [urlKey]: { url: `{${key}}` }, extra: { nested: { deep: true } } },
  { type: urlKey, [urlKey]: 'fixed url' }
]
const VALUES = ['', 'abc', 'http://example.com/a.png', '{image}', '{question}', '{video}', 'ü€😀 é', '<AIS_TEXT_START>', 'a<AIS_CONTENT_TA', ' spaced ']
const JUNK = ['', 'plain', '<AIS_TEXT_STAR', '<AIS_', '<AIS_IMAGE_START', ' <AIS_TEXT_START>x', '<AIS_XIDEO_START>y', '<ais_text_start>z']

function randomContent(r: () => number, kinds: string[]): string {
  const n = Math.floor(r() * 6)
  const segs: string[] = []
  for (let i = 0; i < n; i++) {
    if (r() < 0.2) segs.push(pick(r, JUNK))
    else {
      const kind = pick(r, kinds)
      const tag = TAGS.find(([, k]) => k === kind)!
      segs.push(tag[0] + pick(r, VALUES) + (r() < 0.2 ? pick(r, VALUES) : ''))
    }
  }
  const s = segs.join(SEP)
  return r() < 0.1 ? s + SEP : s
}

function randomPromptMm(r: () => number, kinds: string[]): Record<string, unknown> {
  const pm: Record<string, unknown> = {}
  // Key order varies too: the parts follow the content, never the template.
  for (const [, key, urlKey] of [...TAGS].sort(() => r() - 0.5)) {
    if (!kinds.includes(key)) continue
    pm[key] = key === 'text' ? pick(r, TEXTS) : pick(r, media(key, urlKey))
  }
  return pm
}

function mmInput(pm: Record<string, unknown>, contents: string[]): Partial<PipelineInput> {
  return {
    family: 'aisbench',
    parser: 'api',
    meta_template: { round: [{ role: 'HUMAN', api_role: 'HUMAN' }, { role: 'BOT', api_role: 'BOT', generate: true }] },
    reader_cfg: { input_columns: ['question'], output_column: 'answer' },
    test: contents.map((content, i) => ({ content, answer: String(i) })),
    infer_cfg: {
      prompt_template: { type: 'MMPromptTemplate', template: { round: [{ role: 'HUMAN', prompt_mm: pm }, { role: 'BOT', prompt: '{answer}' }] } },
      retriever: { type: 'ZeroRetriever' },
      inferencer: { type: 'GenInferencer' }
    }
  }
}

describe('format_mm fast path against the reference', () => {
  const ALL = ['text', 'image', 'video', 'audio']
  const seeds = Array.from({ length: 60 }, (_, i) => i + 1)

  it.each(seeds)('random template and rows, seed %i', (seed) => {
    const r = rng(seed)
    // Some templates lack kinds the content uses: those rows must raise the same KeyError.
    const kinds = r() < 0.7 ? ALL : ALL.filter(() => r() < 0.6)
    const pm = randomPromptMm(r, kinds.length ? kinds : ['text'])
    const contents = Array.from({ length: 8 }, () => randomContent(r, ALL))
    const p = prep(mmInput(pm, contents))
    // Twice over: the second pass runs on the plans the first one made.
    for (let pass = 0; pass < 2; pass++) {
      contents.forEach((content, i) => {
        const want = referenceParts(pm, content)
        const row = renderRow(p, i, { spans: false })
        if ('error' in want) {
          expect(row.error?.message).toBe(want.error)
          return
        }
        expect(row.error).toBeUndefined()
        const json = row.items[0].promptList!.json as Array<Record<string, unknown>>
        // Byte-exact, key order included.
        expect(JSON.stringify(json[1].prompt_mm)).toBe(JSON.stringify(want))
        expect(JSON.stringify(row.items[0].messages)).toBe(JSON.stringify([{ role: 'user', content: want }]))
      })
    }
  })

  it('never writes into the template or into an earlier row', () => {
    const pm = { text: { type: 'text', text: '{question}' }, image: { type: 'image_url', image_url: { url: '{image}' } } }
    const before = JSON.stringify(pm)
    const p = prep(mmInput(pm, ['<AIS_IMAGE_START>A', '<AIS_IMAGE_START>B']))
    const first = renderRow(p, 0, { spans: false }).items[0].promptList!.json as Array<Record<string, any>>
    renderRow(p, 1, { spans: false })
    expect(JSON.stringify(pm)).toBe(before)
    expect(first[1].prompt_mm[0].image_url.url).toBe('A')
  })
})

describe('applyMetaTemplate remembers the built meta template per object', () => {
  const META = {
    begin: '<s>',
    round: [
      { role: 'HUMAN', begin: '[U]', end: '[/U]\n', api_role: 'HUMAN' },
      { role: 'BOT', begin: '[A]', end: '[/A]\n', generate: true, api_role: 'BOT' }
    ],
    reserved_roles: [{ role: 'SYSTEM', begin: '[S]', end: '[/S]\n', api_role: 'SYSTEM' }]
  }
  const DIALOGUE: PipelineInput['infer_cfg'] = {
    ice_template: { type: 'PromptTemplate', template: { round: [{ role: 'HUMAN', prompt: 'Q: {question}' }, { role: 'BOT', prompt: 'A: {answer}' }] } },
    prompt_template: {
      type: 'PromptTemplate',
      template: { begin: [{ role: 'SYSTEM', fallback_role: 'HUMAN', prompt: 'Be brief.' }, '</E>'], round: [{ role: 'HUMAN', prompt: 'Q: {question}' }, { role: 'BOT', prompt: 'A: {answer}' }] },
      ice_token: '</E>'
    },
    retriever: { type: 'FixKRetriever', fix_id_list: [0, 1] },
    inferencer: { type: 'GenInferencer' }
  }
  const rows = Array.from({ length: 5 }, (_, i) => ({ question: `q${i}`, answer: `a${i}` }))
  const prompts = (): Prompt[] => {
    const p = prep({ infer_cfg: DIALOGUE, train: rows, test: rows })
    return rows.map((_, i) => buildPromptList(p, i).items[0].prompt)
  }

  const combos = [
    ['lm', 'opencompass'],
    ['api', 'opencompass'],
    ['lm', 'aisbench'],
    ['api', 'aisbench']
  ] as const

  it.each(combos)('gives the same result as a fresh copy on every row (%s, %s)', (parser, family) => {
    const list = prompts()
    for (let pass = 0; pass < 2; pass++) {
      list.forEach((prompt, row) => {
        const opts = { parser, mode: 'gen', family, row }
        const reused = applyMetaTemplate(prompt, META, opts)
        const fresh = applyMetaTemplate(prompt, structuredClone(META), opts)
        expect(JSON.stringify(reused)).toBe(JSON.stringify(fresh))
      })
    }
  })

  it('keeps parsers and families apart for one object', () => {
    const [prompt] = prompts()
    const lm = applyMetaTemplate(prompt, META, { parser: 'lm', mode: 'gen', family: 'opencompass', row: 0 })
    const api = applyMetaTemplate(prompt, META, { parser: 'api', mode: 'gen', family: 'opencompass', row: 0 })
    expect(lm.parsed?.kind).toBe('text')
    expect(api.parsed?.kind).toBe('messages')
  })

  it('raises a bad meta template on every call', () => {
    const bad = { reserved_roles: [] }
    for (let i = 0; i < 2; i++) {
      const r = applyMetaTemplate(prompts()[0], bad, { parser: 'lm', mode: 'gen', family: 'opencompass', row: i })
      expect(r.error?.message).toBe('AssertionError: round is required in meta template')
      expect(r.error?.at?.row).toBe(i)
    }
  })

  // A role override merges dicts as `{**meta_role, **item}`; a `__proto__` key (JSON.parse makes it an own key)
  // must stay a key and never become the merged dict's prototype.
  it('keeps a __proto__ key of a template item a plain key', () => {
    const item = JSON.parse('{"role": "HUMAN", "prompt": "hi", "__proto__": {"api_role": "HUMAN"}}')
    const p = prep({ infer_cfg: { prompt_template: { type: 'PromptTemplate', template: { round: [item] } }, retriever: { type: 'ZeroRetriever' }, inferencer: { type: 'GenInferencer' } } })
    const prompt = buildPromptList(p, 0).items[0].prompt
    const r = applyMetaTemplate(prompt, { round: [{ role: 'HUMAN' }] }, { parser: 'api', mode: 'gen', family: 'opencompass', row: 0 })
    expect(r.error?.message).toBe("KeyError: 'api_role'")
  })
})
