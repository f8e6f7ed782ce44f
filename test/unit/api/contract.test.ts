import { describe, expect, it } from 'vitest'
import { CHANNELS, parseArgs } from '../../../shared/api/contract'
import { API_CHANNELS } from '../../../shared/api/channels'
import { createFacade } from '../../../shared/api/facade'

describe('API contract', () => {
  it('lists the same channels for the preload as the schemas declare', () => {
    expect([...API_CHANNELS].sort()).toEqual([...CHANNELS].sort())
  })

  it('accepts valid arguments and applies defaults', () => {
    const r = parseArgs('export.run', [{ variantId: 'v', modelIds: ['m'], destination: 'download' }])
    expect(r).toEqual({ ok: true, args: [{ what: 'prompts', variantId: 'v', modelIds: ['m'], only: 'all', destination: 'download' }] })
  })

  it('accepts a curated-dataset export with its format and media encoding', () => {
    const q = { what: 'dataset', only: 'accepted', format: 'hf-parquet', media: { form: 'base64', maxSide: 512, format: 'webp', quality: 80 }, curationColumns: true, destination: 'dialog' }
    expect(parseArgs('export.run', [q])).toEqual({ ok: true, args: [q] })
  })

  it.each([
    [{ what: 'dataset', destination: 'dialog', format: 'xlsx' }, /argument 0/],
    [{ what: 'dataset', destination: 'dialog', media: { form: 'keep', maxSide: 100 } }, /argument 0/],
    [{ what: 'dataset', destination: 'dialog', media: { form: 'base64', quality: 0 } }, /argument 0/],
    [{ what: 'dataset', destination: 'dialog', path: '/etc/passwd' }, /argument 0/]
  ])('refuses an export request it cannot honour: %j', (q, message) => {
    const r = parseArgs('export.run', [q])
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatch(message)
  })

  it.each([
    ['project.open', [42], /project\.open: invalid argument 0/],
    ['project.open', ['a\0b'], /NUL/],
    ['rows.page', [{ start: -1, count: 10 }], /argument 0\.start/],
    ['rows.page', [{ start: 0, count: 100000 }], /argument 0\.count/],
    ['curation.apply', [{ target: { indices: [1] }, op: { kind: 'status', status: 'deleted' } }], /argument 0\.op/],
    ['app.info', ['extra'], /app\.info: invalid/]
  ])('rejects bad arguments to %s, naming the argument', (channel, args, message) => {
    const r = parseArgs(channel as never, args)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatch(message)
  })

  it('rejects an unknown channel', () => {
    expect(parseArgs('fs.readFile' as never, [])).toEqual({ ok: false, error: 'unknown API call: fs.readFile' })
  })

  it('builds a namespaced facade whose calls reach the transport with the channel name', async () => {
    const calls: [string, unknown[]][] = []
    const api = createFacade(API_CHANNELS, {
      invoke: async (ch, args) => (calls.push([ch, args]), 'ok'),
      subscribe: () => () => {}
    })
    await api.project.open('/tmp/x')
    await api.rows.page({ start: 0, count: 5 })
    expect(calls).toEqual([
      ['project.open', ['/tmp/x']],
      ['rows.page', [{ start: 0, count: 5 }]]
    ])
  })
})
