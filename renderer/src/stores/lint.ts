// The Lint panel's state: the last report (run in main with progress and cancel), the group or token bin the row
// list is filtered to, and counts kept current as rows are curated (main lints edited rows again and leaves
// rejected rows out when asked for the report).
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { ProgressEvent } from '../../../shared/api/types'
import type { LintReport } from '../../../shared/lint/report'
import { api } from '../lib/api'
import { useCuration } from './curation'
import { useWorkspace } from './workspace'

export const useLint = defineStore('lint', () => {
  const ws = useWorkspace()
  const cur = useCuration()
  const open = ref(false)
  const report = shallowRef<LintReport | null>(null)
  const running = ref(false)
  const progress = ref<ProgressEvent | null>(null)
  const error = ref<string | null>(null)
  const active = computed(() => ws.filter.lint ?? null)

  api.on('progress', (p) => {
    if (p.label !== 'Linting') return
    progress.value = p.finished ? null : p
  })

  async function run() {
    if (running.value || !ws.variantId || ws.modelIds.length === 0) return
    running.value = true
    error.value = null
    try {
      report.value = await api.lint.run({ variantId: ws.variantId, modelIds: [...ws.modelIds] })
      // A filter from the previous run names rows of that run: show the new run's rows.
      if (active.value) await ws.refreshRows()
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e)
    } finally {
      running.value = false
      progress.value = null
    }
  }

  function cancel() {
    if (progress.value) void api.task.cancel(progress.value.taskId)
  }

  async function refresh() {
    if (!report.value || running.value) return
    try {
      report.value = await api.lint.report()
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e)
    }
  }

  /** Shows only the rows of a group (or bin) in the list; the same key again shows every row. */
  async function filterTo(key: string) {
    const next = { ...ws.filter }
    if (next.lint === key) delete next.lint
    else next.lint = key
    ws.filter = next
    await ws.refreshRows()
  }

  function toggle() {
    open.value = !open.value
    // Opened on a project never linted: start at once, it runs in the background.
    if (open.value && !report.value && !running.value) void run()
  }

  // Counts follow curation: a rejected row leaves its groups, an edited row is linted again.
  watch(
    () => cur.changes,
    () => void refresh()
  )
  // Another project: the old report says nothing about it.
  watch(
    () => ws.project?.id,
    () => {
      report.value = null
      error.value = null
    }
  )

  return { open, report, running, progress, error, active, run, cancel, refresh, filterTo, toggle }
})
