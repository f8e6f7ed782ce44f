// The workspace's keyboard map, in one table: the handler and the shortcut sheet are built from the same rows,
// so the sheet can never list a key that does nothing.
export interface KeyActions {
  move(delta: number): void
  moveTo(pos: 'first' | 'last'): void
  extend(delta: number): void
  togglePick(): void
  status(s: 'accepted' | 'rejected' | 'flagged'): void
  edit(): void
  note(): void
  tag(): void
  templates(): void
  builder(): void
  search(): void
  cycleModel(): void
  toggleDiff(): void
  toggleIce(): void
  /** Previous / next request of the row: PPL label or multi-turn turn. */
  item(delta: number): void
  open(): void
  models(): void
  /** The Export dialog: prompts per model or the curated dataset. */
  exportDialog(): void
  lint(): void
  undo(): void
  redo(): void
  help(): void
  escape(): void
}

interface Binding {
  keys: string[]
  label: string
  does: string
  run(a: KeyActions): void
}

export const BINDINGS: Binding[] = [
  { keys: ['j', 'ArrowDown'], label: 'j / ↓', does: 'next row', run: (a) => a.move(1) },
  { keys: ['k', 'ArrowUp'], label: 'k / ↑', does: 'previous row', run: (a) => a.move(-1) },
  { keys: ['J', 'Shift+ArrowDown'], label: 'Shift+j / Shift+↓', does: 'extend the pick down', run: (a) => a.extend(1) },
  { keys: ['K', 'Shift+ArrowUp'], label: 'Shift+k / Shift+↑', does: 'extend the pick up', run: (a) => a.extend(-1) },
  { keys: ['PageDown'], label: 'PgDn / PgUp', does: '20 rows down / up', run: (a) => a.move(20) },
  { keys: ['PageUp'], label: '', does: '', run: (a) => a.move(-20) },
  { keys: ['Home'], label: 'Home / End', does: 'first / last row', run: (a) => a.moveTo('first') },
  { keys: ['End'], label: '', does: '', run: (a) => a.moveTo('last') },
  { keys: ['x'], label: 'x', does: 'pick / unpick the row (a, r, f then act on the picked rows)', run: (a) => a.togglePick() },
  { keys: ['a'], label: 'a', does: 'accept', run: (a) => a.status('accepted') },
  { keys: ['r'], label: 'r', does: 'reject', run: (a) => a.status('rejected') },
  { keys: ['f'], label: 'f', does: 'flag', run: (a) => a.status('flagged') },
  { keys: ['e'], label: 'e', does: 'edit the selected field (Ctrl+Enter saves)', run: (a) => a.edit() },
  { keys: ['n'], label: 'n', does: 'write a note', run: (a) => a.note() },
  { keys: ['#'], label: '#', does: 'add a tag', run: (a) => a.tag() },
  { keys: ['t'], label: 't', does: 'edit the templates', run: (a) => a.templates() },
  { keys: ['b'], label: 'b', does: 'build a prompt from the columns (sections, examples, schema; saves an OpenCompass config)', run: (a) => a.builder() },
  { keys: ['Ctrl+z'], label: 'Ctrl+Z', does: 'undo', run: (a) => a.undo() },
  { keys: ['Ctrl+Shift+Z', 'Ctrl+Shift+z', 'Ctrl+y'], label: 'Ctrl+Shift+Z', does: 'redo', run: (a) => a.redo() },
  { keys: ['/'], label: '/', does: 'search (text, /regex/, field:value, status:flagged)', run: (a) => a.search() },
  { keys: ['m'], label: 'm', does: 'maximize the next model column (then all again)', run: (a) => a.cycleModel() },
  { keys: ['d'], label: 'd', does: 'diff two model columns', run: (a) => a.toggleDiff() },
  { keys: ['['], label: '[ / ]', does: 'previous / next label (PPL) or turn (multi-turn)', run: (a) => a.item(-1) },
  { keys: [']'], label: '', does: '', run: (a) => a.item(1) },
  { keys: ['i'], label: 'i', does: 'show / hide in-context examples', run: (a) => a.toggleIce() },
  { keys: ['o'], label: 'o', does: 'open a dataset, config or project', run: (a) => a.open() },
  { keys: ['p'], label: 'p', does: 'choose model columns', run: (a) => a.models() },
  { keys: ['E'], label: 'Shift+E', does: 'export prompts or the curated dataset', run: (a) => a.exportDialog() },
  { keys: ['L'], label: 'L', does: 'lint every row × model: findings per model, click a count to list its rows', run: (a) => a.lint() },
  { keys: ['?'], label: '?', does: 'this sheet', run: (a) => a.help() },
  { keys: ['Escape'], label: 'Esc', does: 'close / leave a field / unpick', run: (a) => a.escape() }
]

export const SHORTCUTS: [string, string][] = BINDINGS.filter((b) => b.label).map((b) => [b.label, b.does])

/** The binding name of a key event: "Ctrl+Shift+Z", "Shift+ArrowDown", "J", "?". Meta counts as Ctrl (macOS). */
export function keyName(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): string | null {
  if (e.altKey) return null
  const ctrl = e.ctrlKey || e.metaKey
  // Shift is part of printable keys already ("J", "?"); it is named only for keys that have no shifted form.
  const named = e.key.length > 1
  // Some hosts report Shift+j as "j" with shiftKey set; letters are named by their shifted form either way.
  const key = e.shiftKey && !named ? e.key.toUpperCase() : e.key
  return (ctrl ? 'Ctrl+' : '') + (e.shiftKey && (named || ctrl) ? 'Shift+' : '') + key
}

const byKey = new Map<string, Binding>()
for (const b of BINDINGS) for (const k of b.keys) byKey.set(k, b)

/** Runs the binding for `e`; true when one ran (the caller then prevents the default). */
export function runKey(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>, actions: KeyActions): boolean {
  const name = keyName(e)
  const b = name ? byKey.get(name) : undefined
  if (!b) return false
  b.run(actions)
  return true
}
