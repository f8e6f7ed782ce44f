// A small JSON list kept in a file (the recent list, prompt-builder snippets): read once and cached, entries a hand
// edit broke left out, and written whole through an atomic replace, one write at a time, so two quick changes cannot
// interleave their temporary files and a crash never leaves a torn list.
import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from './atomic-write'

export class JsonListFile<T> {
  private cache: T[] | null = null
  private writing: Promise<void> = Promise.resolve()

  constructor(
    readonly file: string,
    private valid: (x: unknown) => x is T,
    private max: number
  ) {}

  /** The list; a missing or unreadable file is an empty list (rewritten on the next write). */
  async read(): Promise<T[]> {
    if (this.cache) return this.cache
    try {
      const raw = JSON.parse(await readFile(this.file, 'utf8')) as unknown
      this.cache = Array.isArray(raw) ? raw.filter(this.valid).slice(0, this.max) : []
    } catch {
      this.cache = []
    }
    return this.cache
  }

  /** Replaces the list (cut to the maximum); rejects when the file cannot be written. */
  async write(next: T[]): Promise<T[]> {
    const list = next.slice(0, this.max)
    this.cache = list
    const done = this.writing.then(async () => {
      await mkdir(dirname(this.file), { recursive: true })
      await writeFileAtomic(this.file, JSON.stringify(list, null, 2) + '\n')
    })
    this.writing = done.catch(() => {})
    await done
    return list
  }
}
