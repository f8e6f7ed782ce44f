// Checks the committed demo project (assets/demo, made by test/tools/make-demo.mjs) is whole: the project file
// points at real files, every row is a well-formed multiple-choice item whose media opens, and the model
// profiles' .py and JSON twins carry the same meta template.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'

const DEMO = resolve(__dirname, '../../../assets/demo')
const DATA = join(DEMO, 'data')

interface Row {
  id: string
  question: string
  A: string
  B: string
  C: string
  D: string
  answer: string
  image?: string
  audio?: string
  content: string
  meta: Record<string, unknown>
}

const readRows = (split: string): Row[] =>
  readFileSync(join(DATA, `${split}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Row)

const train = readRows('train')
const test = readRows('test')
const all = [...train, ...test]
const MISSING_ON_PURPOSE = 'demo-010'

describe('demo project', () => {
  it('project.json points at files that exist', () => {
    const project = JSON.parse(readFileSync(join(DEMO, 'project.json'), 'utf8')) as {
      dataset: string
      config: string
      models: string[]
    }
    for (const rel of [project.dataset, project.config, ...project.models]) {
      expect(existsSync(join(DEMO, rel)), rel).toBe(true)
    }
  })

  it('has 4-6 train rows and at least 12 test rows with unique ids', () => {
    expect(train.length).toBeGreaterThanOrEqual(4)
    expect(train.length).toBeLessThanOrEqual(6)
    expect(test.length).toBeGreaterThanOrEqual(12)
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length)
  })

  it.each(all.map((r) => [r.id, r] as const))('%s is a complete multiple-choice row', (_id, row) => {
    for (const k of ['question', 'A', 'B', 'C', 'D'] as const) expect(row[k].length).toBeGreaterThan(0)
    expect(['A', 'B', 'C', 'D']).toContain(row.answer)
    expect((row.image === undefined) !== (row.audio === undefined)).toBe(true)
    expect(typeof row.meta.difficulty).toBe('number')
    // AISBench MMCustomDataset form: <TYPE_START>ref<AIS_CONTENT_TAG><AIS_TEXT_START>text
    const tag = row.image !== undefined ? '<AIS_IMAGE_START>' : '<AIS_AUDIO_START>'
    expect(row.content.startsWith(`${tag}${row.image ?? row.audio}<AIS_CONTENT_TAG><AIS_TEXT_START>`)).toBe(true)
  })

  it('covers CJK, emoji, an inline data: URL and one deliberately missing file', () => {
    expect(test.some((r) => /[\u4e00-\u9fff]/.test(r.question))).toBe(true)
    expect(test.some((r) => /\p{Extended_Pictographic}/u.test(r.question))).toBe(true)
    expect(test.some((r) => r.image?.startsWith('data:image/png;base64,'))).toBe(true)
    const missing = all.filter((r) => {
      const ref = r.image ?? r.audio ?? ''
      return !ref.startsWith('data:') && !existsSync(join(DATA, ref))
    })
    expect(missing.map((r) => r.id)).toEqual([MISSING_ON_PURPOSE])
  })

  it('images open and come in several formats and sizes', async () => {
    const refs = all.map((r) => r.image).filter((p): p is string => p !== undefined && !p.startsWith('data:'))
    const found = refs.filter((p) => existsSync(join(DATA, p)))
    const metas = await Promise.all(found.map((p) => sharp(join(DATA, p)).metadata()))
    expect(new Set(metas.map((m) => m.format))).toEqual(new Set(['png', 'jpeg', 'webp', 'gif']))
    const widths = metas.map((m) => m.width ?? 0)
    expect(Math.min(...widths)).toBeLessThanOrEqual(320)
    expect(Math.max(...widths)).toBeGreaterThanOrEqual(1600)
  })

  it('audio clips are RIFF/WAVE or MP3 files', () => {
    const clips = all.map((r) => r.audio).filter((p): p is string => p !== undefined)
    expect(clips.some((p) => p.endsWith('.wav')) && clips.some((p) => p.endsWith('.mp3'))).toBe(true)
    for (const p of clips) {
      const head = readFileSync(join(DATA, p)).subarray(0, 12)
      if (p.endsWith('.wav')) expect(head.toString('latin1', 8, 12)).toBe('WAVE')
      // LAME via sox writes either an ID3 tag or a bare MPEG frame sync.
      else expect(head.toString('latin1', 0, 3) === 'ID3' || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)).toBe(true)
    }
  })

  it('stays small (under 1.5 MB)', () => {
    const size = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce(
        (n, e) => n + (e.isDirectory() ? size(join(dir, e.name)) : readFileSync(join(dir, e.name)).length),
        0
      )
    expect(size(DEMO)).toBeLessThan(1.5 * 1024 * 1024)
  })

  it.each(['chatml', 'llama3', 'internlm2'])('%s.json is an OpenCompass meta template mirrored in %s.py', (name) => {
    const profile = JSON.parse(readFileSync(join(DEMO, 'models', `${name}.json`), 'utf8')) as {
      format: string
      meta_template: { round: { role: string; begin?: string; generate?: boolean }[] }
      context_length: number
    }
    expect(profile.format).toBe('opencompass-meta')
    expect(profile.meta_template.round.filter((r) => r.generate === true)).toHaveLength(1)
    const py = readFileSync(join(DEMO, 'models', `${name}.py`), 'utf8')
    expect(py).toContain(`max_seq_len=${profile.context_length}`)
    for (const r of profile.meta_template.round) {
      // The .py writes strings as Python literals; JSON.stringify's escapes match for these ASCII values.
      if (r.begin !== undefined) expect(py).toContain(`begin=${pyQuote(r.begin)}`)
    }
  })
})

function pyQuote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`
}
