// JPEG bytes as Pillow 11.3 writes them (Image.save(fp, "JPEG"): libjpeg-turbo baseline, quality 75, 4:2:0,
// standard Huffman tables, a JFIF 1.01 header without density unit): the loaders' RefCOCO base64 path
// (Image.open(bytes).convert("RGB")) and dumped .jpg pictures give Pillow's exact bytes. Sources and Pillow's output
// come from test/fixtures/pillow-jpeg/make.py.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ioFor, workDir } from './fixtures'

const cases = JSON.parse(
  readFileSync(path.join(__dirname, '../../fixtures/pillow-jpeg/pillow-jpeg.json'), 'utf8')
) as Array<{ name: string; source: string; jpeg: string }>
const byName = (n: string) => cases.find((c) => c.name === n)!

describe("Pillow's JPEG bytes", () => {
  for (const name of ['rgb-jpeg', 'rgba-png', 'odd-jpeg']) {
    it(`convert("RGB") then save as JPEG: ${name}`, async () => {
      const c = byName(name)
      const out = await ioFor(workDir()).reencodeImage(Buffer.from(c.source, 'base64'), 'jpeg', { rgb: true })
      expect(out).toBe(c.jpeg)
    })
  }

  it('a grey picture dumped as .jpg stays grey and is written as Pillow writes it', async () => {
    const w = workDir()
    const io = ioFor(w)
    const file = path.join(w.cache, 'g.jpg')
    await io.saveBase64Image(byName('gray').source, file)
    expect(readFileSync(file).toString('base64')).toBe(byName('gray').jpeg)
  })
})
