// `promptloom serve [PATH] [--port N]`: browser mode. The same renderer and main-process services, over HTTP on
// loopback with a per-run token.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createApi } from '../api/create-api'
import type { Host } from '../api/host'
import { startBrowserServer, type BrowserServer } from '../server/browser-server'
import { rendererDir } from '../services/app-paths'
import { parseArgs, UsageError } from './args'
import type { CliIo } from './io'

export interface ServeHandle {
  server: BrowserServer
  close(): Promise<void>
}

export async function startServe(opts: { path?: string; port?: number; token?: string }): Promise<ServeHandle> {
  const dir = rendererDir()
  if (!existsSync(dir)) throw new Error(`the UI is not built (${dir} is missing): run npm run build`)
  let server: BrowserServer | null = null
  const host: Host = {
    mode: 'browser',
    mediaUrl: (p) => server!.mediaUrl(p),
    inlineMediaUrl: (id) => server!.inlineMediaUrl(id),
    pickSavePath: async () => null,
    offerDownload: (p, name) => server!.offerDownload(p, name),
    emit: (e, payload) => server?.emit(e, payload)
  }
  const api = createApi(host, { startPath: opts.path })
  server = await startBrowserServer({ port: opts.port, rendererDir: dir, dispatch: api.dispatch, roots: () => api.roots(), token: opts.token })
  if (opts.path) {
    // Serve at once: the page shows indexing progress and gets the project when it is ready (project.current
    // waits for it). A path that cannot be opened is reported here and in the page.
    api.openStart().catch((e) => process.stderr.write(`promptloom: cannot open ${opts.path}: ${e instanceof Error ? e.message : String(e)}\n`))
  }
  return {
    server,
    close: async () => {
      await server!.close()
      api.workspace.close()
    }
  }
}

export const SERVE_HELP = `promptloom serve [PATH] [--port N] [--open]

Runs the app in your browser: the same interface and services as the desktop app, over HTTP on 127.0.0.1 only.
The printed URL carries a one-time token; without it the server answers nothing. PATH (a project folder, config or
dataset) opens at once; otherwise the app starts on the Open panel.

  --port N   the port to listen on (default: a free one)
  --open     also open the URL in the system's browser
  --help     this text

Stops on Ctrl+C. Exit codes: 0 stopped, 2 usage error.
`

/** The platform's "open this URL" command; failures are only reported (the URL is printed anyway). */
function openInBrowser(url: string, io: CliIo): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  try {
    const child = spawn(cmd, [url], { detached: true, stdio: 'ignore' })
    child.on('error', (e) => io.stderr(`promptloom: could not open a browser (${e.message}); open the URL above.\n`))
    child.unref()
  } catch (e) {
    io.stderr(`promptloom: could not open a browser (${e instanceof Error ? e.message : String(e)}); open the URL above.\n`)
  }
}

export async function runServe(argv: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseArgs(argv, { port: { type: 'string' }, open: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } })
  if (flags.help) {
    io.stdout(SERVE_HELP)
    return 0
  }
  if (positional.length > 1) throw new UsageError('serve takes at most one PATH')
  const port = flags.port === undefined ? 0 : Number(flags.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0–65535, got ${flags.port}`)
  const h = await startServe({ path: positional[0], port })
  io.stdout(`PromptLoom (browser mode) is serving on loopback only.\nOpen: ${h.server.url}\nPress Ctrl+C to stop.\n`)
  if (flags.open) openInBrowser(h.server.url, io)
  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await h.close()
  return 0
}
