// Shared fixtures for the project-store tests: a throwaway copy of the demo project (the repo's assets/demo is
// never written), a host that records nothing, and a private config folder for fallback stores.
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Host } from '../../../main/api/host'
import { demoProjectDir } from '../../../main/services/app-paths'
import { Workspace } from '../../../main/services/workspace/workspace'

export const host: Host = {
  mode: 'browser',
  mediaUrl: (p) => `/media?path=${encodeURIComponent(p)}`,
  pickSavePath: async () => null,
  offerDownload: (p) => `/download/${encodeURIComponent(p)}`,
  emit: () => {}
}

export function tmpDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `pl-store-${tag}-`))
}

/** A fresh copy of the demo project in a temporary folder. */
export function demoCopy(): string {
  const dir = join(tmpDir('demo'), 'demo')
  cpSync(demoProjectDir(), dir, { recursive: true, filter: (src) => !src.includes('.promptloom') })
  return dir
}

/** A workspace that saves curation (tests otherwise default to memory), opened on `dir`. */
export async function openPersistent(dir: string): Promise<Workspace> {
  const ws = new Workspace(host, { curation: 'persistent' })
  await ws.session.open(dir)
  return ws
}
