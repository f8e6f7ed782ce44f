// The row list asks for several pages of one filtered selection at once (the first page and the pages in view):
// they must share one scan of the split, so that the one progress bar's Cancel stops it.
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import type { ProgressEvent } from '../../../shared/api/types'
import { Workspace } from '../../../main/services/workspace/workspace'
import { demoCopy } from '../store/helpers'

describe('filtered row pages', () => {
  it('share one scan of the split when asked for at the same time', async () => {
    const scans = new Set<string>()
    const host: Host = {
      mode: 'browser',
      mediaUrl: (p) => p,
      pickSavePath: async () => null,
      emit: (event, payload) => {
        const p = payload as ProgressEvent
        if (event === 'progress' && p.label === 'Filtering rows') scans.add(p.taskId)
      }
    }
    const dir = demoCopy()
    const ws = new Workspace(host, { curation: 'memory' })
    try {
      await ws.session.open(dir)
      const q = { count: 5, filter: { status: ['unreviewed' as const] } }
      const [first, second] = await Promise.all([ws.rows.page({ ...q, start: 0 }), ws.rows.page({ ...q, start: 5 })])
      expect(scans.size).toBe(1)
      expect(first.total).toBeGreaterThan(5)
      expect(second.total).toBe(first.total)
      expect(second.items[0].index).toBe(5)
    } finally {
      ws.close()
      rmSync(dirname(dir), { recursive: true, force: true })
    }
  })
})
