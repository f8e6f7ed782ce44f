// @vitest-environment happy-dom
// The template editor store over a mocked API: edits are previewed once per pause in typing, the matrix takes
// the preview's render (and keeps the last one when an edit cannot be read), diagnostics land on their tab,
// and Apply / Revert settle the drafts and the workspace's render hook.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProjectSummary, RowRender, TemplateDoc } from '../../../shared/api/types'

const calls = vi.hoisted(() => ({
  preview: [] as unknown[],
  render: [] as unknown[],
  previewResult: null as unknown
}))

function rowRender(text: string): RowRender {
  return { index: 0, split: 'test', variantId: 'v1', fields: {}, media: [], promptList: [], problems: [], status: 'unreviewed', models: [{ modelId: 'm1', modelName: 'M1', kind: 'text', text, problems: [] }] }
}

vi.mock('../../../renderer/src/lib/api', () => {
  const doc = (target: object, text: string): TemplateDoc => ({ target: target as TemplateDoc['target'], title: 't', language: 'json', text, original: text, overridden: false })
  return {
    api: {
      on: () => () => {},
      rows: { page: async () => ({ total: 1, start: 0, items: [{ index: 0, split: 'test', preview: 'p', status: 'unreviewed', media: [], problems: 0 }] }) },
      render: {
        row: async (q: unknown) => {
          calls.render.push(q)
          return rowRender('ORIGINAL')
        }
      },
      template: {
        get: async (t: object) => doc(t, '{"a": 1}'),
        preview: async (q: unknown) => {
          calls.preview.push(q)
          return typeof calls.previewResult === 'function' ? (calls.previewResult as (x: unknown) => unknown)(q) : calls.previewResult
        },
        apply: async (q: { target: object; text: string }) => ({ applied: true, doc: { ...doc(q.target, q.text), overridden: true }, diagnostics: [], savedTo: '/p/.promptloom/overrides.json' }),
        revert: async (t: object) => ({ applied: true, doc: doc(t, '{"a": 1}'), diagnostics: [] })
      }
    }
  }
})

const { useWorkspace } = await import('../../../renderer/src/stores/workspace')
const { useTemplateEditor, PREVIEW_DELAY_MS } = await import('../../../renderer/src/stores/template-editor')

const project: ProjectSummary = {
  id: 'p',
  name: 'p',
  root: '/p',
  dataset: { path: '/p/d.jsonl', format: 'jsonl', splits: [{ name: 'test', rowCount: 1, file: '/p/d.jsonl' }], columns: [], problems: [] },
  variants: [{ id: 'v1', label: 'v1', kind: 'PromptTemplate' }],
  models: [{ id: 'm1', name: 'M1', format: 'opencompass-meta', source: 'project' }],
  problems: []
}

let ws: ReturnType<typeof useWorkspace>
let te: ReturnType<typeof useTemplateEditor>
const VKEY = 'variant:v1'

beforeEach(async () => {
  setActivePinia(createPinia())
  calls.preview = []
  calls.render = []
  calls.previewResult = { render: rowRender('PREVIEW'), diagnostics: [[]] }
  ws = useWorkspace()
  te = useTemplateEditor()
  await ws.load(async () => project)
  await te.loadDoc(VKEY)
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** Lets the debounce fire and the preview's promise chain settle. */
async function settle() {
  await vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS + 1)
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

describe('template editor store', () => {
  it('has a tab for the variant and one per shown model', () => {
    expect(te.tabs.map((t) => t.key)).toEqual([VKEY, 'model:m1'])
  })

  it('previews once per pause in typing, with the latest text', async () => {
    te.edit(VKEY, '{"a": 2')
    te.edit(VKEY, '{"a": 22')
    te.edit(VKEY, '{"a": 222}')
    await settle()
    expect(calls.preview).toHaveLength(1)
    expect(calls.preview[0]).toMatchObject({ index: 0, variantId: 'v1', modelIds: ['m1'], edits: [{ target: { variantId: 'v1' }, text: '{"a": 222}' }] })
    expect(ws.render?.models[0].text).toBe('PREVIEW')
  })

  it('keeps the last matrix when an edit cannot be read, and puts the diagnostics on its tab', async () => {
    te.edit(VKEY, '{"a": 3}')
    await settle()
    const diag = { code: 'json-syntax', message: 'bad', severity: 'error' as const, range: { start: { line: 1, column: 2 }, end: { line: 1, column: 3 } } }
    // The back end renders the row with the saved templates and says the draft is not used; the store shows the
    // last draft that rendered instead, with that error.
    const broken = { ...rowRender('SAVED'), problems: [{ code: 'template-draft', message: 'not used', severity: 'error' as const }] }
    const good = calls.previewResult
    calls.previewResult = (q: { edits: { text: string }[] }) => (q.edits[0].text === '{"a": ' ? { render: broken, diagnostics: [[diag]] } : good)
    te.edit(VKEY, '{"a": ')
    await settle()
    expect(ws.render?.models[0].text).toBe('PREVIEW')
    expect(ws.render?.problems[0]).toMatchObject({ code: 'template-draft', message: expect.stringContaining('last text that rendered') })
    expect(te.diagnostics.get(VKEY)).toEqual([diag])
  })

  it('an edit back to the text in effect is no edit: the plain render returns', async () => {
    te.edit(VKEY, '{"a": 4}')
    await settle()
    te.edit(VKEY, '{"a": 1}')
    await settle()
    expect(te.drafts.size).toBe(0)
    expect(ws.renderHook).toBeNull()
    expect(ws.render?.models[0].text).toBe('ORIGINAL')
  })

  it('Revert drops the draft, asks the editor to reload, and renders without it', async () => {
    te.edit(VKEY, '{"a": 5}')
    await settle()
    const n = te.replaced.n
    await te.revert()
    expect(te.drafts.has(VKEY)).toBe(false)
    expect(te.replaced).toEqual({ key: VKEY, n: n + 1 })
    expect(ws.render?.models[0].text).toBe('ORIGINAL')
  })

  it('Apply makes the draft the text in effect and says where it was saved', async () => {
    te.edit(VKEY, '{"a": 6}')
    await te.apply()
    expect(te.drafts.size).toBe(0)
    expect(te.docs.get(VKEY)).toMatchObject({ text: '{"a": 6}', overridden: true })
    expect(te.message).toMatch(/overrides\.json/)
  })
})
