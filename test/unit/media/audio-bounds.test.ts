// Waveform peaks of a huge WAV (issue #10, item 9): a 1 GiB recording used to be read whole into memory on the
// main thread (+1 GB RSS, a 5.7 s stall). Peaks now stream a bounded number of bytes. The file here is sparse
// (a header, a loud stretch and holes), so the test costs little disk and time.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync, ftruncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { WAV_SAMPLE_BYTES, audioPeaks } from '../../../main/services/media/audio'
import { peaksOf } from '../../../main/services/workspace/media-calls'

const dir = mkdtempSync(join(tmpdir(), 'pl-audio-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const RATE = 48000
const DATA = 1 << 30 // 1 GiB of 16-bit stereo: ~93 minutes

function wavHeader(dataBytes: number): Buffer {
  const h = Buffer.alloc(44)
  h.write('RIFF', 0, 'latin1')
  h.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4)
  h.write('WAVEfmt ', 8, 'latin1')
  h.writeUInt32LE(16, 16)
  h.writeUInt16LE(1, 20) // PCM
  h.writeUInt16LE(2, 22) // stereo
  h.writeUInt32LE(RATE, 24)
  h.writeUInt32LE(RATE * 4, 28)
  h.writeUInt16LE(4, 32)
  h.writeUInt16LE(16, 34)
  h.write('data', 36, 'latin1')
  h.writeUInt32LE(dataBytes, 40)
  return h
}

/** A sparse 1 GiB WAV, silent except a stretch at half scale over its last eighth. */
function hugeWav(): string {
  const f = join(dir, 'huge.wav')
  const fd = openSync(f, 'w')
  writeSync(fd, wavHeader(DATA), 0, 44, 0)
  ftruncateSync(fd, 44 + DATA)
  const loud = Buffer.alloc(4 << 20)
  for (let o = 0; o < loud.length; o += 2) loud.writeInt16LE(16384, o)
  for (let at = (DATA / 8) * 7; at < DATA; at += loud.length) writeSync(fd, loud, 0, loud.length, 44 + at)
  closeSync(fd)
  return f
}

describe('waveform of a huge WAV', () => {
  const f = hugeWav()

  it('reads a bounded sample: fast, little memory, marked sampled, duration exact', async () => {
    const rss0 = process.memoryUsage().rss
    const t0 = performance.now()
    const r = await audioPeaks(f, 64)
    const took = performance.now() - t0
    const grew = process.memoryUsage().rss - rss0
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(took).toBeLessThan(3000)
    expect(grew).toBeLessThan(8 * WAV_SAMPLE_BYTES)
    expect(r.value.sampled).toBe(true)
    expect(r.value.durationSec).toBeCloseTo(DATA / 4 / RATE, 3)
    const p = [...r.value.peaks].map((v) => Math.round(v * 100) / 100)
    expect(p.slice(0, 56).every((v) => v === 0)).toBe(true)
    expect(p.slice(56)).toEqual(Array(8).fill(0.5))
  })

  it('the app path (media.peaks) gives the same waveform', async () => {
    const r = await peaksOf([dir], f, 64)
    expect(r.ok).toBe(true)
    if (r.ok) expect(r.value.peaks.slice(56)).toEqual(Array(8).fill(0.5))
  })

  it('a WAV whose data size runs past the file is read up to its end, not trusted', async () => {
    const g = join(dir, 'lying.wav')
    const fd = openSync(g, 'w')
    const body = Buffer.alloc(RATE * 4)
    for (let o = 0; o < body.length; o += 2) body.writeInt16LE(-16384, o)
    writeSync(fd, Buffer.concat([wavHeader(0xfffffff0), body]))
    closeSync(fd)
    const r = await audioPeaks(g, 4)
    expect(r).toMatchObject({ ok: true, value: { durationSec: 1 } })
  })
})
