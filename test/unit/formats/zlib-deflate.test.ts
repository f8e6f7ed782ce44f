// zlib's deflate ported to TypeScript (shared/formats/zlib-deflate.ts) against vanilla zlib 1.2.13 (Python's
// zlib module; test/fixtures/zlib/make.py): byte-equal streams for every level, Z_FILTERED with memLevel 9 (what
// Pillow's PNG writer asks for), incompressible data (stored blocks), long runs (window slides), and Pillow 11.3's
// own PNG files, which the PNG writer then reproduces byte for byte.
import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { zlibDeflate } from '../../../shared/formats/zlib-deflate'
import { pillowPng } from '../../../shared/media/pillow-png'

const fx = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/zlib/zlib.json'), 'utf8')) as {
  deflate: Array<{ input: string; level: number; memLevel: number; strategy: number; bytes: number; sha256: string }>
  png: Array<{ kind: string; width: number; height: number; bytes: number; sha256: string }>
}

/** The inputs make.py builds, from the same formulas. */
function lcg(n: number, seed: number, mod = 256): Uint8Array {
  const out = new Uint8Array(n)
  let x = seed
  for (let i = 0; i < n; i++) {
    x = Number((BigInt(x) * 1103515245n + 12345n) % 2147483648n)
    out[i] = (x >> 16) % mod
  }
  return out
}
function words(n: number): Uint8Array {
  const w = ['alpha', 'beta', 'gamma', 'delta', 'image', 'token', 'prompt', 'model']
  return new TextEncoder().encode(Array.from({ length: n }, (_, i) => `${w[i % 8]}${i % 97}`).join(' '))
}
const INPUTS: Record<string, () => Uint8Array> = {
  empty: () => new Uint8Array(0),
  one: () => new TextEncoder().encode('a'),
  abc: () => new TextEncoder().encode('abc'.repeat(7)),
  words: () => words(20000),
  lcg: () => lcg(100000, 1),
  lcg4: () => lcg(300000, 2, 4),
  zeros: () => new Uint8Array(200000)
}

function picture(kind: string, w: number, h: number): Uint8Array {
  const px = new Uint8Array(w * h * 3)
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v =
        kind === 'grad'
          ? [Math.floor((x * 255) / w), Math.floor((y * 255) / h), (x * y) % 256]
          : kind === 'shapes'
            ? [(Math.floor(x / 37) * 40) % 256, (Math.floor(y / 23) * 60) % 256, (Math.floor((x + y) / 50) * 30) % 256]
            : [Math.floor((x * x + y * y) / 40) % 256, (x * 3 + y) % 256, Math.floor(((x - y) * (x - y)) / 90) % 256]
      px.set(v, (y * w + x) * 3)
    }
  return px
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex')

describe('zlib deflate port', () => {
  for (const c of fx.deflate) {
    it(`${c.input}, level ${c.level}, memLevel ${c.memLevel}${c.strategy ? ', Z_FILTERED' : ''}: vanilla zlib's ${c.bytes} bytes`, () => {
      const out = zlibDeflate(INPUTS[c.input](), { level: c.level, memLevel: c.memLevel, strategy: c.strategy })
      expect([out.length, sha(out)]).toEqual([c.bytes, c.sha256])
    })
  }

  it('its streams inflate back to the input', () => {
    const data = words(5000)
    expect(Buffer.from(zlib.inflateSync(zlibDeflate(data))).equals(Buffer.from(data))).toBe(true)
  })
})

describe("Pillow 11.3's PNG bytes", () => {
  for (const p of fx.png) {
    it(`${p.kind} ${p.width}×${p.height}: the same ${p.bytes} bytes`, () => {
      const png = pillowPng(
        { mode: 'RGB', width: p.width, height: p.height, pixels: picture(p.kind, p.width, p.height) },
        zlibDeflate
      )
      expect([png.length, sha(png)]).toEqual([p.bytes, p.sha256])
    })
  }
})
