// The prompt builder's state: the recipe being composed over the open dataset (column roles guessed from names,
// then confirmed), the back end's check of it (schema, unfilled placeholders, rows that do not fit), and the live
// preview — the recipe's variant text becomes a template-editor draft, so the matrix shows every model's input as
// the person edits, through the same preview path as the template editor.
import { defineStore } from 'pinia'
import { ref, shallowRef, watch } from 'vue'
import type { BuilderCheck, BuilderSnippet } from '../../../shared/api/types'
import { ANSWER_CUE_SECTION, EXAMPLES_SECTION, defaultRecipe, guessRoles, type FieldEdit, type MediaKind, type Recipe, type Section } from '../../../shared/builder'
import { api } from '../lib/api'
import { tabKey, useTemplateEditor } from './template-editor'
import { useWorkspace } from './workspace'

const CHECK_DELAY_MS = 200

export const usePromptBuilder = defineStore('promptBuilder', () => {
  const ws = useWorkspace()
  const te = useTemplateEditor()
  const open = ref(false)
  const recipe = ref<Recipe | null>(null)
  const check = shallowRef<BuilderCheck | null>(null)
  const message = ref('')
  const busy = ref(false)
  /** Sections saved for reuse, from the user's config folder. */
  const snippets = ref<BuilderSnippet[]>([])
  let timer: ReturnType<typeof setTimeout> | undefined

  const columns = () => ws.project?.dataset.columns.map((c) => c.name) ?? []
  /** Media kinds the reader found in the cells, by column. */
  const mediaKinds = (): Record<string, MediaKind> => Object.fromEntries((ws.project?.dataset.columns ?? []).flatMap((c) => (c.media ? [[c.name, c.media]] : [])))

  function start() {
    const p = ws.project
    if (!p) return
    const abbr = (p.name || 'dataset').replace(/[^\w.-]+/g, '_') + '-built'
    const roles = guessRoles(columns(), mediaKinds())
    // A dataset with media columns starts on the multimodal shape: its pictures and clips reach the models as parts.
    recipe.value = defaultRecipe(abbr, roles, roles.media?.length ? 'multimodal' : 'dialogue')
    changed()
  }

  function toggle(force?: boolean) {
    open.value = force ?? !open.value
    if (open.value && !recipe.value) start()
    if (open.value) void loadSnippets()
  }

  async function loadSnippets() {
    try {
      snippets.value = await api.builder.snippets()
    } catch (e) {
      message.value = e instanceof Error ? e.message : String(e)
    }
  }

  /** Every change: check (debounced), then preview the variant text in the matrix. */
  function changed() {
    clearTimeout(timer)
    timer = setTimeout(() => void refresh(), CHECK_DELAY_MS)
  }

  async function refresh() {
    const r = recipe.value
    if (!r || !ws.variantId) return
    try {
      const c = await api.builder.check(JSON.parse(JSON.stringify(r)) as Recipe)
      if (recipe.value !== r) return
      check.value = c
      const key = tabKey({ variantId: ws.variantId })
      await te.loadDoc(key)
      te.edit(key, c.variantText)
      message.value = ''
    } catch (e) {
      message.value = e instanceof Error ? e.message : String(e)
    }
  }

  function setRole(role: 'question' | 'answer' | 'context', column: string) {
    if (!recipe.value) return
    const roles = { ...recipe.value.roles, [role]: column || undefined }
    rebuild(roles)
  }

  function toggleChoice(column: string) {
    if (!recipe.value) return
    const cur = recipe.value.roles.choices
    const cols = columns()
    const choices = cur.includes(column) ? cur.filter((c) => c !== column) : [...cur, column].sort((a, b) => cols.indexOf(a) - cols.indexOf(b))
    rebuild({ ...recipe.value.roles, choices })
  }

  /** A media column in or out of the prompt (its parts go in the order the columns were ticked). */
  function toggleMedia(column: string) {
    if (!recipe.value) return
    const cur = recipe.value.roles.media ?? []
    const kind = mediaKinds()[column] ?? guessRoles([column]).media?.[0]?.kind ?? 'image'
    const media = cur.some((m) => m.column === column) ? cur.filter((m) => m.column !== column) : [...cur, { column, kind }]
    rebuild({ ...recipe.value.roles, media })
  }

  /** The person's edit of one field of the derived schema (kind, required, allowed values). */
  function editField(name: string, patch: FieldEdit) {
    if (!recipe.value) return
    const fields = recipe.value.fields ?? {}
    update({ fields: { ...fields, [name]: { ...fields[name], ...patch } } })
  }

  /** The multimodal shape places fixed examples only (they are written into each row's content). */
  function setShape(shape: Recipe['shape']) {
    if (!recipe.value) return
    const sel = recipe.value.selector
    update({ shape, ...(shape === 'multimodal' && sel.kind !== 'none' && sel.kind !== 'fixed' ? { selector: { kind: 'none' } } : {}) })
  }

  /** New roles: the sections that name columns are made again; the person's other sections and texts stay. */
  function rebuild(roles: Recipe['roles']) {
    const r = recipe.value!
    const fresh = defaultRecipe(r.abbr, roles, r.shape)
    const generated = new Set(['context', 'question', 'choices'])
    recipe.value = { ...r, roles, sections: r.sections.map((s) => (generated.has(s.id) ? (fresh.sections.find((f) => f.id === s.id) ?? s) : s)) }
    changed()
  }

  function update(patch: Partial<Recipe>) {
    if (!recipe.value) return
    recipe.value = { ...recipe.value, ...patch }
    changed()
  }

  function updateSection(id: string, patch: Partial<Section>) {
    if (!recipe.value) return
    update({ sections: recipe.value.sections.map((s) => (s.id === id ? { ...s, ...patch } : s)) })
  }

  function moveSection(id: string, delta: number) {
    if (!recipe.value) return
    const list = [...recipe.value.sections]
    const i = list.findIndex((s) => s.id === id)
    const j = i + delta
    if (i < 0 || j < 0 || j >= list.length) return
    ;[list[i], list[j]] = [list[j], list[i]]
    update({ sections: list })
  }

  /** Sections the person added (custom text, wrap sections, snippets) can be removed; the built-in ones switch off. */
  const isAdded = (id: string) => id.startsWith('added-')

  function newId(): string {
    const taken = new Set(recipe.value?.sections.map((s) => s.id))
    let n = 1
    while (taken.has(`added-${n}`)) n++
    return `added-${n}`
  }

  /** A new section goes before the answer cue (the question turn ends with the cue), else last. */
  function addSection(section: Omit<Section, 'id'>) {
    if (!recipe.value) return
    const list = [...recipe.value.sections]
    const cue = list.findIndex((s) => s.id === ANSWER_CUE_SECTION)
    list.splice(cue < 0 ? list.length : cue, 0, { ...section, id: newId() })
    update({ sections: list })
  }

  function addCustom() {
    addSection({ name: 'Custom', template: '', enabled: true })
  }

  /** A wrap section renders the sections it wraps (ticked in its list) where its template says {wrapped}. */
  function addWrap() {
    addSection({ name: 'Wrap', template: '<context>\n{wrapped}\n</context>', enabled: true, wraps: [] })
  }

  function removeSection(id: string) {
    if (!recipe.value || !isAdded(id)) return
    const sections = recipe.value.sections.filter((s) => s.id !== id).map((s) => (s.wraps?.includes(id) ? { ...s, wraps: s.wraps.filter((w) => w !== id) } : s))
    update({ sections })
  }

  function toggleWrapped(wrapId: string, id: string) {
    const w = recipe.value?.sections.find((s) => s.id === wrapId)
    if (!w || id === wrapId || id === EXAMPLES_SECTION) return
    const wraps = w.wraps ?? []
    updateSection(wrapId, { wraps: wraps.includes(id) ? wraps.filter((x) => x !== id) : [...wraps, id] })
  }

  async function saveSnippet(id: string) {
    const s = recipe.value?.sections.find((x) => x.id === id)
    if (!s) return
    try {
      snippets.value = await api.builder.saveSnippet({ name: s.name, template: s.template })
      message.value = `Saved “${s.name}” as a snippet: insert it in any project from Snippets.`
    } catch (e) {
      message.value = e instanceof Error ? e.message : String(e)
    }
  }

  function insertSnippet(name: string) {
    const sn = snippets.value.find((x) => x.name === name)
    if (!sn) return
    addSection({ name: sn.name, template: sn.template, enabled: true, ...(sn.template.includes('{wrapped}') ? { wraps: [] } : {}) })
  }

  async function deleteSnippet(name: string) {
    try {
      snippets.value = await api.builder.deleteSnippet(name)
    } catch (e) {
      message.value = e instanceof Error ? e.message : String(e)
    }
  }

  async function save() {
    const r = recipe.value
    if (!r) return
    busy.value = true
    try {
      const s = await api.builder.save(JSON.parse(JSON.stringify(r)) as Recipe)
      message.value = s.data
        ? `AISBench config written to ${s.config}, reading ${s.data} (each row with its composed content; field schema: ${s.schema}). Open it with o to work on it as a project.`
        : `Config written to ${s.config} (field schema: ${s.schema}). Open it with o to work on it as a project.`
    } catch (e) {
      message.value = e instanceof Error ? e.message : String(e)
    } finally {
      busy.value = false
    }
  }

  // Another project: start over.
  watch(
    () => ws.project?.name,
    () => {
      recipe.value = null
      check.value = null
      if (open.value) start()
    }
  )

  return {
    open,
    recipe,
    check,
    message,
    busy,
    snippets,
    toggle,
    start,
    setRole,
    toggleChoice,
    toggleMedia,
    setShape,
    editField,
    update,
    updateSection,
    moveSection,
    isAdded,
    addCustom,
    addWrap,
    removeSection,
    toggleWrapped,
    saveSnippet,
    insertSnippet,
    deleteSnippet,
    save
  }
})
