// The template editor's CodeMirror 6 setup: one EditorState per tab (so each keeps its own undo history),
// JSON or Jinja highlighting, the template syntax ({field}, </E>) marked inside the text, and the back end's
// diagnostics (1-based line/column) turned into lint underlines at their offsets.
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { json } from '@codemirror/lang-json'
import { bracketMatching, indentOnInput, StreamLanguage } from '@codemirror/language'
import { jinja2 } from '@codemirror/legacy-modes/mode/jinja2'
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint'
import { EditorState, type Extension, type Text } from '@codemirror/state'
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate
} from '@codemirror/view'
import type { Diagnostic as ProblemDiagnostic } from '../../../shared/api/types'
import { promptloomHighlighting, promptloomTheme } from './codemirror-theme'

export type EditorLanguage = 'json' | 'jinja2'

const jinjaLanguage = StreamLanguage.define(jinja2)

// OpenCompass template syntax inside the JSON strings: {field} placeholders (str.format-style) and the ice/sep
// tokens; in a chat template, the special tokens people write literally (<|im_start|>, [INST], <s>).
const placeholder = new MatchDecorator({
  regexp: /\{[A-Za-z_][\w.]*\}|<\/?E>|<\/?SEP>|<\|[\w\s.-]{1,40}\|>|\[\/?INST\]|<\/?s>/g,
  decoration: (m) => Decoration.mark({ class: m[0].startsWith('{') ? 'cm-pl-placeholder' : 'cm-pl-token' })
})
const templateSyntax = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet
    constructor(view: EditorView) {
      this.decorations = placeholder.createDeco(view)
    }
    update(u: ViewUpdate) {
      this.decorations = placeholder.updateDeco(u, this.decorations)
    }
  },
  { decorations: (v) => v.decorations }
)

export interface StateOptions {
  doc: string
  language: EditorLanguage
  readOnly?: boolean
  /** Every change of the text. */
  onChange: (text: string) => void
  /** Escape: leave the editor (the app returns focus to the row list). */
  onEscape: () => void
}

/** A fresh editor state for one tab. */
export function createEditorState(o: StateOptions): EditorState {
  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    drawSelection(),
    history(),
    indentOnInput(),
    bracketMatching(),
    lintGutter(),
    o.language === 'json' ? json() : jinjaLanguage,
    promptloomHighlighting,
    promptloomTheme,
    templateSyntax,
    EditorView.lineWrapping,
    EditorState.tabSize.of(2),
    EditorState.readOnly.of(!!o.readOnly),
    EditorView.editable.of(!o.readOnly),
    keymap.of([
      {
        key: 'Escape',
        run: () => {
          o.onEscape()
          return true
        }
      },
      ...defaultKeymap,
      ...historyKeymap,
      indentWithTab
    ]),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) o.onChange(u.state.doc.toString())
    }),
    EditorView.contentAttributes.of({ 'aria-label': o.language === 'json' ? 'Template (JSON)' : 'Chat template (Jinja)', 'data-testid': 'template-code' })
  ]
  return EditorState.create({ doc: o.doc, extensions })
}

/** Offset of a 1-based line and column, clamped to the document. */
export function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.max(1, Math.min(line, doc.lines)))
  return Math.min(l.to, l.from + Math.max(0, column - 1))
}

/** The back end's diagnostics as CodeMirror lint diagnostics; an empty range widens to one character. */
export function toLintDiagnostics(doc: Text, ds: ProblemDiagnostic[]): Diagnostic[] {
  return ds.map((d) => {
    // By line and column: the editor joins \r\n into one line break, so offsets into the original text would drift.
    const start = d.range?.start ?? { line: 1, column: 1 }
    const from = offsetOf(doc, start.line, start.column)
    let to = d.range ? offsetOf(doc, d.range.end.line, d.range.end.column) : from
    if (to <= from) to = Math.min(doc.length, from + 1)
    return { from: Math.min(from, to), to, severity: d.severity, message: d.message, ...(d.code ? { source: d.code } : {}) }
  })
}

/** Shows the diagnostics in the view (replacing the previous ones). */
export function showDiagnostics(view: EditorView, ds: ProblemDiagnostic[]): void {
  view.dispatch(setDiagnostics(view.state, toLintDiagnostics(view.state.doc, ds)))
}

/** Replaces the whole text (e.g. after Revert), as one undoable change. */
export function replaceText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } })
}

export { EditorView }
