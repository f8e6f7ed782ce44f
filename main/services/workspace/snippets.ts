// Prompt-builder sections saved for reuse across projects (TFRobot's composable prompt parts): a small JSON file in
// the user's config folder, newest first (a JsonListFile, as the recent list is).
import { join } from 'node:path'
import type { BuilderSnippet } from '../../../shared/api/types'
import { JsonListFile } from '../fs/json-list-file'
import { userConfigDir } from './recent'

const MAX_SNIPPETS = 200

function valid(x: unknown): x is BuilderSnippet {
  const s = x as Partial<BuilderSnippet> | null
  return !!s && typeof s.name === 'string' && s.name.trim() !== '' && typeof s.template === 'string' && typeof s.savedAt === 'string'
}

export class SnippetLibrary {
  private store: JsonListFile<BuilderSnippet>

  constructor(file = join(userConfigDir(), 'snippets.json')) {
    this.store = new JsonListFile(file, valid, MAX_SNIPPETS)
  }

  list(): Promise<BuilderSnippet[]> {
    return this.store.read()
  }

  /** Saves a snippet; one of the same name is replaced. */
  async save(s: { name: string; template: string }): Promise<BuilderSnippet[]> {
    const name = s.name.trim()
    const item: BuilderSnippet = { name, template: s.template, savedAt: new Date().toISOString() }
    return this.store.write([item, ...(await this.list()).filter((x) => x.name !== name)])
  }

  async remove(name: string): Promise<BuilderSnippet[]> {
    return this.store.write((await this.list()).filter((x) => x.name !== name.trim()))
  }
}
