// The Electron shell's wiring, with electron mocked (no binary on this machine): IPC handlers per channel with a
// sender check and argument validation, the preload's facade, protocol handlers, and the hardening hooks.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'

const handlers = new Map<string, (e: unknown, ...a: unknown[]) => unknown>()
const exposed: Record<string, any> = {}
let senderUrl = 'app://promptloom/'
// The frame a call comes from: the window's top frame unless a test makes it a subframe.
let senderIsTop = true
const topFrame: { url: string; parent: unknown; frameToken: string } = { url: '', parent: null, frameToken: 'top' }
const senderEvent = () => {
  topFrame.url = senderUrl
  // A fresh object per event, as Electron may give: the check must match frames by token.
  const frame = senderIsTop ? { ...topFrame } : { url: senderUrl, parent: topFrame, frameToken: 'child' }
  return { senderFrame: frame, sender: { mainFrame: topFrame } }
}

vi.mock('electron', () => ({
  ipcMain: { handle: (ch: string, fn: (e: unknown, ...a: unknown[]) => unknown) => handlers.set(ch, fn) },
  ipcRenderer: {
    invoke: (ch: string, ...a: unknown[]) => Promise.resolve(handlers.get(ch)!(senderEvent(), ...a)),
    on: vi.fn(),
    removeListener: vi.fn()
  },
  contextBridge: { exposeInMainWorld: (k: string, v: unknown) => (exposed[k] = v) }
}))

import { registerIpcHandlers } from '../../../main/electron/ipc'
import { CHANNELS, parseArgs } from '../../../shared/api/contract'
import { DEFAULT_WEB_PREFERENCES, hardenWebContents, isTrustedSender, denyAllPermissions } from '../../../main/electron/security'
import { handleAppRequest, handleMediaRequest, mediaUrlFor } from '../../../main/electron/protocols'

const dispatched: [string, unknown][] = []
registerIpcHandlers(
  { handle: (ch: string, fn: any) => handlers.set(ch, fn) } as any,
  async (channel, args) => {
    const p = parseArgs(channel as any, args)
    if (!p.ok) return p
    dispatched.push([channel, p.args])
    return { ok: true, value: `${channel} done` }
  }
)

describe('IPC wiring', () => {
  it('registers one handler per contract channel', () => {
    expect([...handlers.keys()].sort()).toEqual(CHANNELS.map((c) => `api:${c}`).sort())
  })

  it('exposes window.promptloom whose calls reach the main handlers and unwrap the envelope', async () => {
    await import('../../../main/electron/preload')
    expect(await exposed.promptloom.project.open('/data/x.jsonl')).toBe('project.open done')
    expect(dispatched.at(-1)).toEqual(['project.open', ['/data/x.jsonl']])
  })

  it('turns an invalid argument into an error naming it, before any handler runs', async () => {
    const n = dispatched.length
    await expect(exposed.promptloom.rows.page({ start: 'zero', count: 1 })).rejects.toThrow(/rows\.page: invalid argument 0\.start/)
    expect(dispatched.length).toBe(n)
  })

  it('refuses calls from a frame that is not the app', async () => {
    senderUrl = 'https://evil.example/'
    await expect(exposed.promptloom.app.info()).rejects.toThrow(/untrusted sender/)
    senderUrl = 'app://promptloom/'
  })

  it('refuses calls from an app:// subframe: only the top frame may call', async () => {
    senderIsTop = false
    try {
      await expect(exposed.promptloom.app.info()).rejects.toThrow(/untrusted sender/)
    } finally {
      senderIsTop = true
    }
    expect(await exposed.promptloom.app.info()).toBe('app.info done')
  })
})

describe('security settings', () => {
  it('keeps the renderer isolated, sandboxed and without Node', () => {
    expect(DEFAULT_WEB_PREFERENCES).toMatchObject({ nodeIntegration: false, contextIsolation: true, sandbox: true, webSecurity: true })
  })

  it.each([
    ['app://promptloom/index.html', true],
    ['app://other/', false],
    ['file:///etc/passwd', false],
    ['http://127.0.0.1/', false],
    [undefined, false]
  ])('trusts sender %s: %s', (url, ok) => {
    expect(isTrustedSender(url)).toBe(ok)
  })

  it('denies navigation away from the app and every window.open', () => {
    const on = new Map<string, (...a: any[]) => void>()
    let openHandler: any
    hardenWebContents({ on: (ev: string, fn: any) => on.set(ev, fn), setWindowOpenHandler: (fn: any) => (openHandler = fn) } as any)
    const ev = { preventDefault: vi.fn() }
    on.get('will-navigate')!(ev, 'https://evil.example/')
    expect(ev.preventDefault).toHaveBeenCalled()
    expect(openHandler({ url: 'https://x' })).toEqual({ action: 'deny' })
  })

  it('denies every permission request', () => {
    let req: any, check: any
    denyAllPermissions({ setPermissionRequestHandler: (f: any) => (req = f), setPermissionCheckHandler: (f: any) => (check = f) } as any)
    const cb = vi.fn()
    req(null, 'media', cb)
    expect(cb).toHaveBeenCalledWith(false)
    expect(check()).toBe(false)
  })
})

describe('protocols', () => {
  const base = mkdtempSync(join(tmpdir(), 'pl-proto-'))
  const rdir = join(base, 'renderer')
  const root = join(base, 'root')
  mkdirSync(rdir)
  mkdirSync(root)
  writeFileSync(join(rdir, 'index.html'), '<!doctype html>')
  writeFileSync(join(root, 'a.mp3'), Buffer.alloc(100, 1))
  writeFileSync(join(base, 'outside.mp3'), 'x')

  it('serves the renderer on app:// with a CSP header', async () => {
    const r = await handleAppRequest(rdir, new Request('app://promptloom/'))
    expect(r.status).toBe(200)
    expect(r.headers.get('content-security-policy')).toMatch(/default-src 'self'/)
  })

  it('serves media under a root with Range support', async () => {
    const r = await handleMediaRequest([root], new Request(mediaUrlFor(join(root, 'a.mp3')), { headers: { range: 'bytes=0-9' } }))
    expect(r.status).toBe(206)
    expect((await r.arrayBuffer()).byteLength).toBe(10)
  })

  it('refuses media outside the roots', async () => {
    const r = await handleMediaRequest([root], new Request(mediaUrlFor(join(base, 'outside.mp3'))))
    expect(r.status).toBe(403)
  })
})
