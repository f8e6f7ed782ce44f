// Browser mode's security: loopback only, the per-run token, Host/Origin checks against DNS rebinding, and
// media confined to the opened roots.
import http from 'node:http'
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBrowserServer, type BrowserServer } from '../../../main/server/browser-server'

const base = mkdtempSync(join(tmpdir(), 'pl-srv-'))
const rendererDir = join(base, 'renderer')
const root = join(base, 'data')
mkdirSync(rendererDir)
mkdirSync(root)
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>x</title>')
writeFileSync(join(root, 'ok.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
writeFileSync(join(base, 'secret.png'), 'outside')
symlinkSync(join(base, 'secret.png'), join(root, 'link.png'))

let srv: BrowserServer
const calls: unknown[] = []

beforeAll(async () => {
  srv = await startBrowserServer({
    rendererDir,
    roots: () => [root],
    token: 'T0KEN',
    dispatch: async (channel, args) => (calls.push([channel, args]), { ok: true, value: channel })
  })
})
afterAll(() => srv.close())

function request(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: srv.port, path, method: opts.method ?? 'GET', headers: { host: `127.0.0.1:${srv.port}`, ...opts.headers } }, (res) => {
      let body = ''
      res.on('data', (c) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}
const auth = { 'x-promptloom-token': 'T0KEN' }

describe('browser-mode server', () => {
  it('binds to loopback and prints a URL carrying the token', () => {
    expect(srv.url).toBe(`http://127.0.0.1:${srv.port}/?token=T0KEN`)
  })

  it('refuses requests without the token', async () => {
    expect((await request('/')).status).toBe(401)
    expect((await request('/api/app.info', { method: 'POST', body: '[]' })).status).toBe(401)
  })

  it('refuses a wrong token', async () => {
    expect((await request('/', { headers: { 'x-promptloom-token': 'nope!' } })).status).toBe(401)
  })

  it('trades the URL token for an HttpOnly SameSite cookie', async () => {
    const r = await request('/?token=T0KEN')
    expect(r.status).toBe(302)
    expect(r.headers['set-cookie']?.[0]).toMatch(new RegExp(`^promptloom_token_${srv.port}=T0KEN; HttpOnly; SameSite=Strict`))
    expect((await request('/', { headers: { cookie: `promptloom_token_${srv.port}=T0KEN` } })).status).toBe(200)
  })

  it("names the cookie per port: another server's cookie is not this one's", async () => {
    const other = await startBrowserServer({ rendererDir, roots: () => [root], token: 'OTHER', dispatch: async () => ({ ok: true, value: null }) })
    try {
      const set = await new Promise<string>((resolve) =>
        http.get({ host: '127.0.0.1', port: other.port, path: '/?token=OTHER', headers: { host: `127.0.0.1:${other.port}` } }, (res) => resolve(res.headers['set-cookie']?.[0] ?? '')).end()
      )
      expect(set.split(';')[0]).toBe(`promptloom_token_${other.port}=OTHER`)
      // A browser sends both cookies to both ports (cookies ignore ports); each server reads only its own.
      const both = `promptloom_token_${other.port}=OTHER; promptloom_token_${srv.port}=T0KEN`
      expect((await request('/', { headers: { cookie: both } })).status).toBe(200)
      expect((await request('/', { headers: { cookie: `promptloom_token_${other.port}=OTHER` } })).status).toBe(401)
    } finally {
      await other.close()
    }
  })

  it('refuses media embedded by a page on another local port (Sec-Fetch-Site), and serves its own pages', async () => {
    const path = `/media?path=${encodeURIComponent(join(root, 'ok.png'))}`
    expect((await request(path, { headers: { ...auth, 'sec-fetch-site': 'same-site' } })).status).toBe(403)
    expect((await request(path, { headers: { ...auth, 'sec-fetch-site': 'cross-site' } })).status).toBe(403)
    expect((await request(path, { headers: { ...auth, 'sec-fetch-site': 'same-origin' } })).status).toBe(200)
  })

  it('refuses media requested with another port as Origin', async () => {
    const r = await request(`/media?path=${encodeURIComponent(join(root, 'ok.png'))}`, { headers: { ...auth, origin: `http://127.0.0.1:${srv.port + 1}` } })
    expect(r.status).toBe(403)
  })

  it.each(['/api/app%E0%A4%A', '/%E0%A4%A', '/%'])('answers a malformed percent escape (%s) with 400, not 500', async (path) => {
    const post = path.startsWith('/api/')
    const r = await request(path, { method: post ? 'POST' : 'GET', body: post ? '[]' : undefined, headers: auth })
    expect(r.status).toBe(400)
  })

  it('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
    expect((await request('/', { headers: { ...auth, host: `evil.example:${srv.port}` } })).status).toBe(403)
  })

  it('refuses a foreign Origin even with the token', async () => {
    const r = await request('/api/app.info', { method: 'POST', body: '[]', headers: { ...auth, origin: 'http://evil.example' } })
    expect(r.status).toBe(403)
  })

  it('routes API calls to the dispatcher and returns its envelope', async () => {
    const r = await request('/api/app.info', { method: 'POST', body: '[]', headers: auth })
    expect(JSON.parse(r.body)).toEqual({ ok: true, value: 'app.info' })
    expect(calls.at(-1)).toEqual(['app.info', []])
  })

  it('sends the renderer with a strict CSP header', async () => {
    const r = await request('/', { headers: auth })
    expect(r.headers['content-security-policy']).toMatch(/script-src 'self'/)
    expect(r.headers['content-security-policy']).not.toMatch(/unsafe-eval/)
  })

  it('serves media under an opened root', async () => {
    const r = await request(`/media?path=${encodeURIComponent(join(root, 'ok.png'))}`, { headers: auth })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('image/png')
  })

  it.each([
    ['../ traversal', join(root, '..', 'secret.png')],
    ['relative ../', '../secret.png'],
    ['absolute path outside', join(base, 'secret.png')],
    ['symlink pointing outside', join(root, 'link.png')],
    ['percent-encoded dots', `${root}/%2e%2e/secret.png`],
    ['file:// URL outside', `file://${base}/secret.png`],
    ['NUL byte', `${root}/ok.png\0.png`]
  ])('refuses media outside the roots: %s', async (_name, p) => {
    const r = await request(`/media?path=${encodeURIComponent(p)}`, { headers: auth })
    expect(r.status).toBe(403)
  })

  it('does not serve files outside the renderer folder', async () => {
    expect((await request('/..%2f..%2fsecret.png', { headers: auth })).status).toBeGreaterThanOrEqual(403)
  })
})

describe('browser-mode downloads', () => {
  it('streams an export once, then removes it and its temp folder (#10: finished exports left temp files)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'promptloom-export-'))
    const file = join(dir, 'x.tsv')
    writeFileSync(file, '"a"\t"b"\n')
    const url = srv.offerDownload(file, 'x.tsv')
    const r = await request(url, { headers: auth })
    expect([r.status, r.body, r.headers['content-type']]).toEqual([200, '"a"\t"b"\n', 'text/tab-separated-values; charset=utf-8'])
    for (let i = 0; i < 50 && existsSync(dir); i++) await new Promise((res) => setTimeout(res, 20))
    expect(existsSync(dir)).toBe(false)
    expect((await request(url, { headers: auth })).status).toBe(404)
  })
})
