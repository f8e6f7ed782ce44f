// Prompt-builder snippets: sections saved for reuse in the user's config folder, kept across restarts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SnippetLibrary } from '../../../main/services/workspace/snippets'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function file(): string {
  const d = mkdtempSync(join(tmpdir(), 'pl-snippets-'))
  dirs.push(d)
  return join(d, 'nested', 'snippets.json')
}

describe('SnippetLibrary', () => {
  it('keeps saved snippets for the next start, newest first', async () => {
    const f = file()
    const lib = new SnippetLibrary(f)
    await lib.save({ name: 'Terse', template: 'Answer with one letter.' })
    await lib.save({ name: 'Context wrap', template: '<context>\n{wrapped}\n</context>' })
    const again = await new SnippetLibrary(f).list()
    expect(again.map((s) => [s.name, s.template])).toEqual([
      ['Context wrap', '<context>\n{wrapped}\n</context>'],
      ['Terse', 'Answer with one letter.']
    ])
  })

  it('replaces a snippet saved again under the same name', async () => {
    const lib = new SnippetLibrary(file())
    await lib.save({ name: 'Terse', template: 'v1' })
    const list = await lib.save({ name: ' Terse ', template: 'v2' })
    expect(list.map((s) => [s.name, s.template])).toEqual([['Terse', 'v2']])
  })

  it('removes a snippet by name, on disk too', async () => {
    const f = file()
    const lib = new SnippetLibrary(f)
    await lib.save({ name: 'A', template: 'a' })
    await lib.save({ name: 'B', template: 'b' })
    await lib.remove('A')
    expect((await new SnippetLibrary(f).list()).map((s) => s.name)).toEqual(['B'])
  })

  it('skips entries a hand edit broke, and reads an unreadable file as empty', async () => {
    const f = file()
    const lib = new SnippetLibrary(f)
    await lib.save({ name: 'ok', template: 't' })
    const raw = JSON.parse(readFileSync(f, 'utf8'))
    writeFileSync(f, JSON.stringify([...raw, { name: 3 }, null, { name: '', template: 'x', savedAt: 'y' }]))
    expect((await new SnippetLibrary(f).list()).map((s) => s.name)).toEqual(['ok'])
    writeFileSync(f, '{not json')
    expect(await new SnippetLibrary(f).list()).toEqual([])
  })
})
