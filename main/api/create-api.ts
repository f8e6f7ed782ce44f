// The API implementation behind every host: validates each call's arguments against the shared contract, then
// runs it on the workspace service the channel belongs to (main/services/workspace/workspace.ts lists them).
// Electron-free, so the browser-mode server and tests use exactly this code.
import { parseArgs, type Channel, type ParsedArgsOf, type ResultOf } from '../../shared/api/contract'
import type { ProjectSummary } from '../../shared/api/types'
import type { Envelope } from './envelope'
import type { Host } from './host'
import { Workspace } from '../services/workspace/workspace'
import { RecentItems } from '../services/workspace/recent'
import { SnippetLibrary } from '../services/workspace/snippets'

type Handlers = { [C in Channel]: (...args: ParsedArgsOf<C>) => Promise<ResultOf<C>> | ResultOf<C> }

export interface Api {
  dispatch(channel: string, args: unknown): Promise<Envelope>
  /** Opens the path given on the command line, recorded in the recent list like any other open. */
  openStart(): Promise<ProjectSummary>
  roots(): string[]
  workspace: Workspace
}

export function createApi(host: Host, opts: { startPath?: string; recentFile?: string; snippetsFile?: string } = {}): Api {
  const ws = new Workspace(host)
  const recent = new RecentItems(opts.recentFile)
  const snippets = new SnippetLibrary(opts.snippetsFile)
  const openAndRemember = async (path: string, o?: { mediaFolder?: string }) => {
    const s = await ws.session.open(path, o)
    await recent.add(path, s.name)
    return s
  }
  const handlers: Handlers = {
    'app.info': () => ws.session.info(),
    // A path given on the command line is opened (and listed in the recent items) like one picked in the app.
    'project.openDemo': () => (opts.startPath ? openAndRemember(opts.startPath) : ws.session.openDemo()),
    'project.open': (path, o) => openAndRemember(path, o),
    'project.current': () => ws.session.currentWhenReady(),
    'dataset.inspect': (path) => ws.session.inspect(path),
    'dataset.skipped': () => ws.session.skippedLines(),
    'dataset.exportSkipped': (q) => ws.exports.skipped(q),
    'rows.page': (q) => ws.rows.page(q),
    'render.row': (q) => ws.render.row(q),
    'models.list': () => ws.session.libraryModels(),
    'models.add': (ref) => ws.session.addModel(ref),
    'models.remove': (id) => ws.session.removeModel(id),
    'curation.apply': (q) => ws.curation.apply(q.target, q.op),
    'curation.undo': () => ws.curation.undo(),
    'curation.redo': () => ws.curation.redo(),
    'curation.tags': () => ws.curation.tags(),
    'dialog.openPath': async (q) => {
      if (!host.pickOpenPath) return { path: null, unsupported: 'There is no file dialog in browser mode: type the path of the file or folder.' }
      return { path: await host.pickOpenPath(q.kind) }
    },
    'recent.list': () => recent.list(),
    'export.run': (q) => ws.exports.run(q),
    'template.get': (t) => ws.templates.get(t),
    'template.preview': (q) => ws.templates.preview(q),
    'template.apply': (q) => ws.templates.apply(q.target, q.text),
    'template.revert': (t) => ws.templates.revert(t),
    'template.exportConfig': (q) => ws.templates.exportConfig(q),
    'builder.check': (r) => ws.templates.checkRecipe(r),
    'builder.save': (r) => ws.templates.saveRecipe(r),
    'builder.snippets': () => snippets.list(),
    'builder.saveSnippet': (s) => snippets.save(s),
    'builder.deleteSnippet': (name) => snippets.remove(name),
    'task.cancel': (id) => ws.tasks.cancel(id),
    'lint.run': (q) => ws.lint.run(q),
    'lint.report': () => ws.lint.report(),
    'media.probe': (src) => ws.media.probe(src),
    'media.peaks': (q) => ws.media.peaks(q)
  }
  if (opts.startPath) ws.session.defaultPath = opts.startPath

  return {
    workspace: ws,
    roots: () => ws.session.roots(),
    openStart: () => openAndRemember(opts.startPath ?? ''),
    async dispatch(channel, rawArgs) {
      if (!Object.hasOwn(handlers, channel)) return { ok: false, error: `unknown API call: ${channel}` }
      const parsed = parseArgs(channel as Channel, rawArgs)
      if (!parsed.ok) return parsed
      try {
        const fn = handlers[channel as Channel] as (...a: unknown[]) => unknown
        return { ok: true, value: await fn(...(parsed.args as unknown[])) }
      } catch (e) {
        return { ok: false, error: e instanceof Error ? e.message : String(e) }
      }
    }
  }
}
