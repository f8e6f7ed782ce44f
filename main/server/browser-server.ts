// Browser mode: the same renderer and the same main-process API behind HTTP, for machines where Electron cannot
// start and for `promptloom serve`. Bound to loopback only; every request must carry the per-run token (cookie
// after the first visit, or a header), and a foreign Host or Origin is refused so DNS rebinding cannot reach it.
// Cookies ignore ports, so the cookie is named for this server's port (a second `serve` does not log the first
// out), and a request a browser marks as coming from another site or port (Sec-Fetch-Site) is refused: a page on
// another local port could otherwise embed /media URLs with our cookie and learn which files exist.
import http from 'node:http'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, realpath, rm, rmdir, stat } from 'node:fs/promises'
import { basename, dirname, extname, join, normalize, sep } from 'node:path'
import { Readable } from 'node:stream'
import type { ApiEvents } from '../../shared/api/types'
import type { Envelope } from '../api/envelope'
import { fileResponse } from './file-response'
import { rendererCsp } from './csp'
import { resolveUnderRoots } from '../services/media/roots'
import { serveInline } from '../services/media/inline-store'

export interface BrowserServerOptions {
  port?: number
  rendererDir: string
  dispatch(channel: string, args: unknown): Promise<Envelope>
  roots(): string[]
  token?: string
}

export interface BrowserServer {
  url: string
  port: number
  token: string
  mediaUrl(absPath: string): string
  inlineMediaUrl(id: string): string
  offerDownload(absPath: string, fileName: string): string
  emit<E extends keyof ApiEvents>(event: E, payload: ApiEvents[E]): void
  close(): Promise<void>
}

const STATIC_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json'
}

const COOKIE_PREFIX = 'promptloom_token_'
const MAX_BODY = 8 * 1024 * 1024

function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function cookieToken(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return undefined
}

const DOWNLOAD_TYPES: Record<string, string> = {
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8',
  '.parquet': 'application/vnd.apache.parquet'
}

/**
 * Exports offered for download live in their own temp folder (promptloom-export-*): the file goes once it is
 * sent, the folder when it is empty, or (`all`, at close) with anything written beside the file.
 */
async function removeDownload(file: string, all: boolean): Promise<void> {
  const dir = dirname(file)
  const owned = basename(dir).startsWith('promptloom-export-')
  if (all && owned) return void (await rm(dir, { recursive: true, force: true }))
  await rm(file, { force: true })
  if (owned) await rmdir(dir).catch(() => {})
}

/** decodeURIComponent, or null for a malformed escape (`%E0%A4%A`), which is the client's error, not ours. */
function decodePath(s: string): string | null {
  try {
    return decodeURIComponent(s)
  } catch {
    return null
  }
}

// What browsers send in Sec-Fetch-Site for a request this server should answer: its own pages, or the user
// opening a URL (the printed one). Clients that are not browsers send nothing. 'same-site' is another port.
const OWN_FETCH_SITES = new Set(['same-origin', 'none'])

async function sendResponse(res: http.ServerResponse, r: Response): Promise<void> {
  const headers: Record<string, string> = {}
  r.headers.forEach((v, k) => (headers[k] = v))
  res.writeHead(r.status, headers)
  if (!r.body) return void res.end()
  Readable.fromWeb(r.body as import('node:stream/web').ReadableStream).pipe(res)
}

export async function startBrowserServer(opts: BrowserServerOptions): Promise<BrowserServer> {
  const token = opts.token ?? randomBytes(24).toString('hex')
  const rendererDir = await realpath(opts.rendererDir)
  const downloads = new Map<string, { path: string; name: string }>()
  /** Folders of offered exports: what a download leaves (an export's _media folder) goes when the server closes. */
  const offeredDirs = new Set<string>()
  const listeners = new Set<http.ServerResponse>()
  let port = 0
  const cookieName = (): string => `${COOKIE_PREFIX}${port}`

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])

  const server = http.createServer(async (req, res) => {
    try {
      const host = req.headers.host ?? ''
      if (!allowedHosts().has(host)) return void res.writeHead(403).end('forbidden host')
      const origin = req.headers.origin
      if (origin && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) {
        return void res.writeHead(403).end('forbidden origin')
      }
      const fetchSite = req.headers['sec-fetch-site']
      if (typeof fetchSite === 'string' && !OWN_FETCH_SITES.has(fetchSite)) return void res.writeHead(403).end('forbidden cross-site request')
      let url: URL
      try {
        url = new URL(req.url ?? '/', `http://${host}`)
      } catch {
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed request URL')
      }
      const given = (req.headers['x-promptloom-token'] as string | undefined) ?? cookieToken(req.headers.cookie, cookieName())
      if (!sameToken(given, token)) {
        // The printed URL carries the token once; trade it for an HttpOnly cookie and drop it from the address bar.
        if (req.method === 'GET' && url.pathname === '/' && sameToken(url.searchParams.get('token') ?? undefined, token)) {
          res.writeHead(302, {
            'set-cookie': `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/`,
            location: '/'
          })
          return void res.end()
        }
        return void res.writeHead(401, { 'content-type': 'text/plain' }).end('missing or wrong token: open the URL printed by promptloom serve')
      }

      if (req.method === 'POST' && url.pathname.startsWith('/api/')) {
        const channel = decodePath(url.pathname.slice(5))
        if (channel === null) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed percent escape in the path')
        const chunks: Buffer[] = []
        let size = 0
        for await (const c of req) {
          size += (c as Buffer).length
          if (size > MAX_BODY) return void res.writeHead(413).end('request too large')
          chunks.push(c as Buffer)
        }
        let args: unknown
        try {
          args = JSON.parse(Buffer.concat(chunks).toString('utf8') || '[]')
        } catch {
          return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'body is not JSON' }))
        }
        const env = await opts.dispatch(channel, args)
        return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(env))
      }

      if (req.method === 'GET' && url.pathname === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
        res.write(': connected\n\n')
        listeners.add(res)
        req.on('close', () => listeners.delete(res))
        return
      }

      if (req.method === 'GET' && url.pathname === '/media' && url.searchParams.has('inline')) {
        return void (await sendResponse(res, serveInline(url.searchParams.get('inline') ?? '', (req.headers.range as string | undefined) ?? null)))
      }

      if (req.method === 'GET' && url.pathname === '/media') {
        const requested = url.searchParams.get('path') ?? ''
        const r = await resolveUnderRoots(opts.roots(), requested)
        if (!r.ok) return void res.writeHead(403, { 'content-type': 'text/plain' }).end(`refused: ${r.reason}`)
        return void (await sendResponse(res, await fileResponse(r.path, (req.headers.range as string | undefined) ?? null)))
      }

      if (req.method === 'GET' && url.pathname.startsWith('/download/')) {
        const id = url.pathname.slice(10)
        const d = downloads.get(id)
        if (!d) return void res.writeHead(404).end('no such download')
        // One download per export, streamed (an export may be gigabytes); the file is removed once it is sent.
        downloads.delete(id)
        const size = (await stat(d.path)).size
        res.writeHead(200, {
          'content-type': DOWNLOAD_TYPES[extname(d.name)] ?? 'application/octet-stream',
          'content-length': String(size),
          'content-disposition': `attachment; filename="${d.name.replace(/[^\w.-]/g, '_')}"`,
          'x-content-type-options': 'nosniff'
        })
        createReadStream(d.path)
          .on('error', () => res.destroy())
          .on('close', () => void removeDownload(d.path, false))
          .pipe(res)
        return
      }

      if (req.method !== 'GET') return void res.writeHead(405).end()
      if (url.pathname === '/favicon.ico') return void res.writeHead(204).end()
      const decoded = decodePath(url.pathname)
      if (decoded === null) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed percent escape in the path')
      const rel = url.pathname === '/' ? 'index.html' : normalize(decoded).replace(/^[/\\]+/, '')
      const file = join(rendererDir, rel)
      if (!file.startsWith(rendererDir + sep)) return void res.writeHead(403).end()
      const body = await readFile(file).catch(() => null)
      if (!body) return void res.writeHead(404).end('not found')
      res.writeHead(200, {
        'content-type': STATIC_TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': rendererCsp("'self'"),
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache'
      })
      res.end(body)
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`internal error: ${e instanceof Error ? e.message : String(e)}`)
    }
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as import('node:net').AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    mediaUrl: (absPath) => `/media?path=${encodeURIComponent(absPath)}`,
    inlineMediaUrl: (id) => `/media?inline=${encodeURIComponent(id)}`,
    offerDownload(absPath, fileName) {
      const id = randomBytes(12).toString('hex')
      downloads.set(id, { path: absPath, name: basename(fileName) })
      offeredDirs.add(dirname(absPath))
      return `/download/${id}`
    },
    emit(event, payload) {
      const line = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`
      for (const l of listeners) l.write(line)
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const d of downloads.values()) void removeDownload(d.path, true)
        for (const d of offeredDirs) void removeDownload(join(d, '-'), true)
        downloads.clear()
        for (const l of listeners) l.end()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
