// Files the loader tests make: pictures through sharp, Hugging Face style Parquet through hyparquet-writer, and
// one temp folder per test, removed afterwards.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'
import sharp from 'sharp'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { nodeLoaderIO } from '../../../main/services/loaders/node-io'
import { pcmWav } from '../../support/wav'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A fresh folder holding `data/` (the source, never written by loaders) and `cache/` (the media cache). */
export function workDir(): { root: string; data: string; cache: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'plloader'))
  dirs.push(root)
  const data = path.join(root, 'data')
  const cache = path.join(root, 'cache')
  mkdirSync(data)
  return { root, data, cache }
}

export function put(dir: string, rel: string, content: string | Uint8Array): string {
  const p = path.join(dir, rel)
  mkdirSync(path.dirname(p), { recursive: true })
  writeFileSync(p, content)
  return p
}

export async function png(w = 16, h = 12, channels: 3 | 4 = 3): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } })
    .png()
    .toBuffer()
}

export async function jpeg(w = 16, h = 12): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer()
}

/** A minimal PCM WAV (silence, mono, 16 kHz). */
export const wav = (samples = 64): Buffer => pcmWav(samples)

type Col = { name: string; kind: 'string' | 'int' | 'double' | 'media' | 'strings' | 'doubles'; data: unknown[] }

/** A Parquet file as `datasets` writes one: media columns are {bytes, path} structs, with the huggingface metadata. */
export function hfParquet(cols: Col[], features?: Record<string, unknown>): Uint8Array {
  const schema: any[] = [{ name: 'root', num_children: cols.length }]
  for (const c of cols) {
    if (c.kind === 'media') {
      schema.push({ name: c.name, repetition_type: 'OPTIONAL', num_children: 2 })
      schema.push({ name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' })
      schema.push({ name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' })
    } else if (c.kind === 'strings' || c.kind === 'doubles') {
      schema.push({ name: c.name, repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' })
      schema.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 })
      schema.push(
        c.kind === 'strings'
          ? { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }
          : { name: 'element', type: 'DOUBLE', repetition_type: 'OPTIONAL' }
      )
    } else if (c.kind === 'string')
      schema.push({ name: c.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' })
    else if (c.kind === 'int') schema.push({ name: c.name, type: 'INT64', repetition_type: 'OPTIONAL' })
    else schema.push({ name: c.name, type: 'DOUBLE', repetition_type: 'OPTIONAL' })
  }
  const columnData = cols.map((c) => ({
    name: c.name,
    data: c.kind === 'int' ? c.data.map((x) => (x === null ? null : BigInt(x as number))) : c.data
  }))
  const kvMetadata = features ? [{ key: 'huggingface', value: JSON.stringify({ info: { features } }) }] : undefined
  return new Uint8Array(parquetWriteBuffer({ columnData: columnData as any, schema, kvMetadata }))
}

export function ioFor(w: { data: string; cache: string }, written?: Set<string>) {
  return nodeLoaderIO({ cwd: w.data, cacheDir: w.cache, written })
}

/** Every file under a folder, relative. */
export function filesUnder(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string, rel: string): void => {
    let names: string[] = []
    try {
      names = readdirSync(d)
    } catch {
      return
    }
    for (const n of names) {
      const p = path.join(d, n)
      if (statSync(p).isDirectory()) walk(p, path.join(rel, n))
      else out.push(path.join(rel, n))
    }
  }
  walk(dir, '')
  return out.sort()
}
