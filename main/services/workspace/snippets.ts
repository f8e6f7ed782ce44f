// Prompt-builder sections saved for reuse across projects (TFRobot's composable prompt parts): a small JSON file in
// the user's config folder, newest first, written atomically and one write at a time, as the recent list is.
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BuilderSnippet } from '../../../shared/api/types'
import { writeFileAtomic } from '../fs/atomic-write'
import { userConfigDir } from './recent'

const MAX_SNIPPETS = 200

function valid(x: unknown): x is BuilderSnippet {
  const s = x as Partial<BuilderSnippet> | null
  return !!s && typeof s.name === 'string' && s.name.trim() !== '' && typeof s.template === 'string' && typeof s.savedAt === 'string'
}

export class SnippetLibrary {
  private cache: BuilderSnippet[] | null = null
  private writing: Promise<void> = Promise.resolve()

  constructor(private file = join(userConfigDir(), 'snippets.json')) {}

  async list(): Promise<BuilderSnippet[]> {
    if (this.cache) return this.cache
    try {
      const raw = JSON.parse(await readFile(this.file, 'utf8')) as unknown
      // Entries a hand edit broke are left out rather than failing the whole list.
      this.cache = Array.isArray(raw) ? raw.filter(valid).slice(0, MAX_SNIPPETS) : []
    } catch {
      this.cache = []
    }
    return this.cache
  }

  /** Saves a snippet; one of the same name is replaced. */
  async save(s: { name: string; template: string }): Promise<BuilderSnippet[]> {
    const name = s.name.trim()
    const item: BuilderSnippet = { name, template: s.template, savedAt: new Date().toISOString() }
    return this.write([item, ...(await this.list()).filter((x) => x.name !== name)].slice(0, MAX_SNIPPETS))
  }

  async remove(name: string): Promise<BuilderSnippet[]> {
    return this.write((await this.list()).filter((x) => x.name !== name.trim()))
  }

  private async write(next: BuilderSnippet[]): Promise<BuilderSnippet[]> {
    this.cache = next
    // Chained, so two quick saves cannot interleave their temporary files; the file is replaced whole or not at all.
    const done = this.writing.then(async () => {
      await mkdir(join(this.file, '..'), { recursive: true })
      await writeFileAtomic(this.file, JSON.stringify(next, null, 2) + '\n')
    })
    this.writing = done.catch(() => {})
    await done
    return next
  }
}
