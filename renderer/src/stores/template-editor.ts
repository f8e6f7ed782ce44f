// The template editor's state: one tab for the shown variant's infer_cfg and one per shown model's format, the
// text in effect for each (docs), the unsaved edits (drafts), and the diagnostics the back end placed in them.
// While drafts exist the workspace renders the selected row through template.preview, so the matrix follows
// the text as it is typed (debounced), on every row the user moves to.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { Diagnostic, RowRender, TemplateDoc, TemplateEdit, TemplateTarget } from '../../../shared/api/types'
import { api } from '../lib/api'
import { useWorkspace } from './workspace'

/** Long enough to skip renders between keystrokes, short enough to feel live. */
export const PREVIEW_DELAY_MS = 150

export interface TemplateTab {
  key: string
  target: TemplateTarget
  label: string
  detail: string
}

export const tabKey = (t: TemplateTarget): string => ('variantId' in t ? `variant:${t.variantId}` : `model:${t.modelId}`)

export const useTemplateEditor = defineStore('templateEditor', () => {
  const ws = useWorkspace()
  const open = ref(false)
  const activeKey = ref('')
  const docs = shallowRef(new Map<string, TemplateDoc>())
  const drafts = shallowRef(new Map<string, string>())
  const diagnostics = shallowRef(new Map<string, Diagnostic[]>())
  /** Bumped when a tab's text is replaced from outside the editor (revert, restore): the editor reloads it. */
  const replaced = ref<{ key: string; n: number }>({ key: '', n: 0 })
  const message = ref('')
  const busy = ref(false)
  let timer: ReturnType<typeof setTimeout> | undefined

  const tabs = computed<TemplateTab[]>(() => {
    const p = ws.project
    if (!p) return []
    const out: TemplateTab[] = []
    if (ws.variantId) out.push({ key: tabKey({ variantId: ws.variantId }), target: { variantId: ws.variantId }, label: 'Template', detail: ws.variantId })
    for (const m of p.models) {
      if (ws.modelIds.includes(m.id)) out.push({ key: tabKey({ modelId: m.id }), target: { modelId: m.id }, label: m.name, detail: m.format })
    }
    return out
  })
  const activeTab = computed<TemplateTab | undefined>(() => tabs.value.find((t) => t.key === activeKey.value) ?? tabs.value[0])
  const activeDoc = computed(() => (activeTab.value ? docs.value.get(activeTab.value.key) : undefined))
  const activeDirty = computed(() => !!activeTab.value && drafts.value.has(activeTab.value.key))
  const dirtyCount = computed(() => drafts.value.size)

  const setIn = <V>(m: Map<string, V>, key: string, v: V | undefined): Map<string, V> => {
    const next = new Map(m)
    if (v === undefined) next.delete(key)
    else next.set(key, v)
    return next
  }

  async function loadDoc(key: string): Promise<TemplateDoc | undefined> {
    const have = docs.value.get(key)
    if (have) return have
    const tab = tabs.value.find((t) => t.key === key)
    if (!tab) return undefined
    const doc = await api.template.get(tab.target)
    docs.value = setIn(docs.value, key, doc)
    return doc
  }

  function textOf(key: string): string {
    return drafts.value.get(key) ?? docs.value.get(key)?.text ?? ''
  }

  /** The drafts that bear on what is shown: the shown variant's and the shown models'. */
  function liveEdits(): { key: string; edit: TemplateEdit }[] {
    return tabs.value.filter((t) => drafts.value.has(t.key)).map((t) => ({ key: t.key, edit: { target: t.target, text: drafts.value.get(t.key)! } }))
  }

  /** The last drafts that rendered: while the text in the editor cannot be read, other rows render with these. */
  let lastGood: TemplateEdit[] | null = null

  async function previewHook(q: { index: number; variantId: string; modelIds: string[]; showIce: boolean }): Promise<RowRender | null> {
    const live = liveEdits()
    if (!live.length) return api.render.row(q)
    const r = await api.template.preview({ ...q, edits: live.map((l) => l.edit) })
    const broken = r.render?.problems.find((p) => p.code === 'template-draft')
    if (!broken && r.render) lastGood = live.map((l) => l.edit)
    else if (broken && lastGood) {
      const good = await api.template.preview({ ...q, edits: lastGood })
      if (good.render) r.render = { ...good.render, problems: [{ ...broken, message: `${broken.message}; the matrix shows the last text that rendered` }, ...good.render.problems] }
    }
    let next = diagnostics.value
    // Only for texts still in the editor: a slower answer must not put old positions on newer text.
    live.forEach((l, i) => {
      if (textOf(l.key) === l.edit.text) next = setIn(next, l.key, r.diagnostics[i] ?? [])
    })
    diagnostics.value = next
    return r.render
  }

  /** Re-renders the selected row with the drafts (or without, when there are none). */
  async function refresh() {
    clearTimeout(timer)
    const live = liveEdits()
    if (!live.length) lastGood = null
    ws.renderHook = live.length ? previewHook : null
    let next = diagnostics.value
    for (const k of next.keys()) if (!drafts.value.has(k)) next = setIn(next, k, undefined)
    diagnostics.value = next
    await ws.renderSelected()
  }

  function edit(key: string, text: string) {
    const doc = docs.value.get(key)
    if (!doc) return
    drafts.value = setIn(drafts.value, key, text === doc.text ? undefined : text)
    clearTimeout(timer)
    timer = setTimeout(() => void refresh(), PREVIEW_DELAY_MS)
  }

  async function apply() {
    const tab = activeTab.value
    const text = tab && drafts.value.get(tab.key)
    if (!tab || text === undefined) return
    busy.value = true
    try {
      const r = await api.template.apply({ target: tab.target, text })
      diagnostics.value = setIn(diagnostics.value, tab.key, r.diagnostics)
      if (!r.applied) {
        message.value = 'Not applied: fix the errors marked in the text first.'
        return
      }
      docs.value = setIn(docs.value, tab.key, r.doc)
      drafts.value = setIn(drafts.value, tab.key, undefined)
      message.value = r.saveError ?? `Applied and saved with the project (${r.savedTo ?? 'in memory'})`
      await refresh()
    } catch (e) {
      message.value = e instanceof Error ? e.message : String(e)
    } finally {
      busy.value = false
    }
  }

  /** Drops the unsaved edit of the active tab: the text in effect comes back. */
  async function revert() {
    const tab = activeTab.value
    if (!tab || !drafts.value.has(tab.key)) return
    drafts.value = setIn(drafts.value, tab.key, undefined)
    replaced.value = { key: tab.key, n: replaced.value.n + 1 }
    message.value = 'Unsaved changes discarded'
    await refresh()
  }

  /** Back to the config's or profile's own template, dropping the project's saved edit. */
  async function restoreOriginal() {
    const tab = activeTab.value
    if (!tab) return
    busy.value = true
    try {
      const r = await api.template.revert(tab.target)
      docs.value = setIn(docs.value, tab.key, r.doc)
      drafts.value = setIn(drafts.value, tab.key, undefined)
      replaced.value = { key: tab.key, n: replaced.value.n + 1 }
      message.value = r.saveError ?? 'Back to the original template'
      await refresh()
    } finally {
      busy.value = false
    }
  }

  async function exportConfig() {
    if (!ws.variantId) return
    const destination = window.promptloom ? 'dialog' : 'download'
    const r = await api.template.exportConfig({ variantId: ws.variantId, destination })
    if (r.downloadUrl) {
      const a = document.createElement('a')
      a.href = r.downloadUrl
      a.download = `${ws.variantId}.infer_cfg.json`
      document.body.appendChild(a)
      a.click()
      a.remove()
    }
    message.value = r.cancelled ? 'Export cancelled' : r.path ? `Config written to ${r.path}` : 'Config downloaded'
  }

  function toggle(force?: boolean) {
    open.value = force ?? !open.value
  }

  function select(key: string) {
    activeKey.value = key
  }

  // Another project: nothing carries over.
  watch(
    () => ws.project,
    () => {
      docs.value = new Map()
      drafts.value = new Map()
      diagnostics.value = new Map()
      message.value = ''
      ws.renderHook = null
    }
  )

  return {
    open, activeKey, docs, drafts, diagnostics, replaced, message, busy, tabs, activeTab, activeDoc, activeDirty, dirtyCount,
    loadDoc, textOf, edit, refresh, apply, revert, restoreOriginal, exportConfig, toggle, select
  }
})
