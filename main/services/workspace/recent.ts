// Recently opened projects, datasets and configs, newest first, kept in a small JSON list file under the user's
// config folder.
import { stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, extname, join } from 'node:path'
import type { RecentItem } from '../../../shared/api/types'
import { JsonListFile } from '../fs/json-list-file'

const MAX_ITEMS = 12

/** PROMPTLOOM_CONFIG_DIR wins (tests and portable installs), then XDG_CONFIG_HOME, then ~/.config. */
export function userConfigDir(): string {
  if (process.env.PROMPTLOOM_CONFIG_DIR) return process.env.PROMPTLOOM_CONFIG_DIR
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(base, 'promptloom')
}

async function kindOf(path: string): Promise<RecentItem['kind']> {
  const st = await stat(path).catch(() => null)
  if (st?.isDirectory()) return (await stat(join(path, 'project.json')).catch(() => null)) ? 'project' : 'folder'
  if (basename(path) === 'project.json') return 'project'
  return ['.py', '.yaml', '.yml'].includes(extname(path).toLowerCase()) ? 'config' : 'dataset'
}

export class RecentItems {
  private store: JsonListFile<RecentItem>

  constructor(file = join(userConfigDir(), 'recent.json')) {
    this.store = new JsonListFile(file, (x): x is RecentItem => typeof (x as RecentItem | null)?.path === 'string' && typeof (x as RecentItem).name === 'string', MAX_ITEMS)
  }

  list(): Promise<RecentItem[]> {
    return this.store.read()
  }

  async add(path: string, name: string): Promise<RecentItem[]> {
    const item: RecentItem = { path, name, kind: await kindOf(path), openedAt: new Date().toISOString() }
    const next = [item, ...(await this.list()).filter((x) => x.path !== path)]
    // The list is a convenience: an unwritable config folder must not fail the open that added to it.
    return this.store.write(next).catch(() => next.slice(0, MAX_ITEMS))
  }
}
