// Audio facts and waveform peaks. Metadata (duration, sample rate, channels) comes from music-metadata for
// every format. Peaks need samples: WAV is decoded by hand (PCM 8/16/24/32-bit and float), MP3, FLAC and Ogg
// Vorbis and Ogg Opus by the maintained WASM decoders (mpg123-decoder, @wasm-audio-decoders/flac, /ogg-vorbis,
// ogg-opus-decoder), all from one family so they share one API. Peaks never read a whole large file: a WAV is
// streamed and, past WAV_EXACT_BYTES, sampled; compressed files past COMPRESSED_MAX_BYTES are read in windows.
import { open, type FileHandle } from 'node:fs/promises'
import { sniffBytes } from './sniff'
import { parseMetadata } from './metadata'

export interface AudioInfo {
  durationSec: number | null
  sampleRate: number | null
  channels: number | null
  codec: string | null
}

export interface AudioPeaks extends AudioInfo {
  /** Max |sample| over all channels in each of n equal buckets, 0..1. */
  peaks: Float32Array
}

export type AudioResult<T> = { ok: true; value: T } | { ok: false; code: 'unsupported' | 'corrupt' | 'missing'; message: string }

export async function audioInfo(file: string, mime?: string | null): Promise<AudioResult<AudioInfo>> {
  try {
    const meta = await parseMetadata(file, mime)
    return {
      ok: true,
      value: {
        durationSec: meta.format.duration ?? null,
        sampleRate: meta.format.sampleRate ?? null,
        channels: meta.format.numberOfChannels ?? null,
        codec: meta.format.codec ?? meta.format.container ?? null
      }
    }
  } catch (err) {
    return { ok: false, code: 'corrupt', message: `Cannot read audio metadata: ${(err as Error).message}` }
  }
}

interface Pcm {
  channels: Float32Array[]
  sampleRate: number
  channelCount: number
  frames: number
  codec: string
}

function bucketPeaks(frames: number, n: number, sampleAbs: (frame: number) => number): Float32Array {
  const out = new Float32Array(n)
  if (frames === 0) return out
  for (let b = 0; b < n; b++) {
    const a = Math.floor((b * frames) / n)
    const z = Math.max(a + 1, Math.floor(((b + 1) * frames) / n))
    let m = 0
    for (let f = a; f < z && f < frames; f++) {
      const v = sampleAbs(f)
      if (v > m) m = v
    }
    out[b] = Math.min(1, m)
  }
  return out
}

async function decodeCompressed(bytes: Uint8Array, kind: 'mp3' | 'flac' | 'ogg' | 'opus'): Promise<Pcm> {
  let decoded: { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number }
  if (kind === 'mp3') {
    const { MPEGDecoder } = await import('mpg123-decoder')
    const d = new MPEGDecoder()
    await d.ready
    try {
      decoded = d.decode(bytes)
    } finally {
      d.free()
    }
  } else if (kind === 'flac') {
    const { FLACDecoder } = await import('@wasm-audio-decoders/flac')
    const d = new FLACDecoder()
    await d.ready
    try {
      decoded = await d.decodeFile(bytes)
    } finally {
      d.free()
    }
  } else if (kind === 'opus') {
    const { OggOpusDecoder } = await import('ogg-opus-decoder')
    const d = new OggOpusDecoder()
    await d.ready
    try {
      decoded = await d.decodeFile(bytes)
    } finally {
      d.free()
    }
  } else {
    const { OggVorbisDecoder } = await import('@wasm-audio-decoders/ogg-vorbis')
    const d = new OggVorbisDecoder()
    await d.ready
    try {
      decoded = await d.decodeFile(bytes)
    } finally {
      d.free()
    }
  }
  return { channels: decoded.channelData, channelCount: decoded.channelData.length, sampleRate: decoded.sampleRate, frames: decoded.samplesDecoded, codec: kind }
}

/** WAV data up to this size is read whole (exact peaks); above it each bucket is sampled. */
export const WAV_EXACT_BYTES = 16 << 20
/** Bytes read from a large WAV for its peaks, whatever its size: the waveform costs the same for 1 MB or 1 TB. */
export const WAV_SAMPLE_BYTES = 8 << 20
/** Compressed audio up to this size is decoded whole; above it only evenly spaced windows (MP3) or the start. */
export const COMPRESSED_MAX_BYTES = 32 << 20
const WINDOWS_PER_BUCKET = 4
const STREAM_CHUNK = 1 << 20

/** Where a WAV's samples are and how they are laid out, from its chunk headers (read one by one, never the data). */
interface WavLayout {
  format: number
  channels: number
  rate: number
  bits: number
  dataStart: number
  dataBytes: number
}

async function wavLayout(fh: FileHandle, size: number): Promise<WavLayout | null> {
  const head = Buffer.alloc(40)
  const { bytesRead } = await fh.read(head, 0, 12, 0)
  if (bytesRead < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return null
  let fmt: Omit<WavLayout, 'dataStart' | 'dataBytes'> | null = null
  // Chunk headers only; each step moves forward, and a file has few chunks before its data.
  for (let p = 12, k = 0; p + 8 <= size && k < 1000; k++) {
    if ((await fh.read(head, 0, 8, p)).bytesRead < 8) return null
    const id = head.toString('latin1', 0, 4)
    const chunk = head.readUInt32LE(4)
    const body = p + 8
    if (id === 'fmt ') {
      if ((await fh.read(head, 0, 40, body)).bytesRead < 16) return null
      let format = head.readUInt16LE(0)
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
      if (format === 0xfffe && chunk >= 26) format = head.readUInt16LE(24)
      fmt = { format, channels: head.readUInt16LE(2), rate: head.readUInt32LE(4), bits: head.readUInt16LE(14) }
    } else if (id === 'data' && fmt) {
      return { ...fmt, dataStart: body, dataBytes: Math.min(chunk, size - body) }
    }
    p = body + chunk + (chunk & 1)
  }
  return null
}

/** |sample| reader for a WAV sample format, or null when the format is not PCM/float this reads. */
function sampleReader(format: number, bits: number): ((b: Buffer, o: number) => number) | null {
  if (format === 3 && bits === 32) return (b, o) => Math.abs(b.readFloatLE(o))
  if (format === 3 && bits === 64) return (b, o) => Math.abs(b.readDoubleLE(o))
  if (format === 1 && bits === 8) return (b, o) => Math.abs(b[o] - 128) / 128
  if (format === 1 && bits === 16) return (b, o) => Math.abs(b.readInt16LE(o)) / 32768
  if (format === 1 && bits === 24) return (b, o) => Math.abs(b.readIntLE(o, 3)) / 8388608
  if (format === 1 && bits === 32) return (b, o) => Math.abs(b.readInt32LE(o)) / 2147483648
  return null
}

/**
 * WAV peaks by streaming: small files are read whole in 1 MiB pieces (exact), large ones in a few windows per
 * bucket (WAV_SAMPLE_BYTES in all), so memory and time stay bounded however long the recording is.
 */
async function wavPeaks(fh: FileHandle, w: WavLayout, n: number): Promise<{ peaks: Float32Array; frames: number; sampled: boolean } | null> {
  const read = sampleReader(w.format, w.bits)
  const bytesPer = w.bits / 8
  const stride = bytesPer * w.channels
  if (!read || !(stride > 0) || !Number.isInteger(bytesPer)) return null
  const frames = Math.floor(w.dataBytes / stride)
  const peaks = new Float32Array(n)
  if (frames === 0) return { peaks, frames, sampled: false }
  const sampled = w.dataBytes > WAV_EXACT_BYTES
  // Frames [a, b) folded into the buckets they belong to, read in pieces of at most STREAM_CHUNK bytes.
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(frames, Math.floor(STREAM_CHUNK / stride))) * stride)
  const fold = async (a: number, b: number): Promise<void> => {
    for (let f = a; f < b; ) {
      const count = Math.min(b - f, Math.floor(buf.length / stride))
      const { bytesRead } = await fh.read(buf, 0, count * stride, w.dataStart + f * stride)
      const got = Math.floor(bytesRead / stride)
      if (got === 0) return
      for (let i = 0; i < got; i++) {
        const bucket = Math.min(n - 1, Math.floor(((f + i) * n) / frames))
        let m = peaks[bucket]
        for (let c = 0; c < w.channels; c++) {
          const v = read(buf, i * stride + c * bytesPer)
          if (v > m) m = v
        }
        peaks[bucket] = Math.min(1, m)
      }
      f += got
    }
  }
  if (!sampled) await fold(0, frames)
  else {
    const windowFrames = Math.max(1, Math.floor(WAV_SAMPLE_BYTES / n / WINDOWS_PER_BUCKET / stride))
    for (let b = 0; b < n; b++) {
      const a = Math.floor((b * frames) / n)
      const z = Math.max(a + 1, Math.floor(((b + 1) * frames) / n))
      for (let k = 0; k < WINDOWS_PER_BUCKET; k++) {
        const at = a + Math.floor(((z - a) * k) / WINDOWS_PER_BUCKET)
        await fold(at, Math.min(z, at + windowFrames))
      }
    }
  }
  return { peaks, frames, sampled }
}

/** The first `len` bytes, and for MP3 past the size cap, evenly spaced windows of it (mpg123 resyncs on frames). */
async function compressedBytes(fh: FileHandle, size: number, kind: 'mp3' | 'flac' | 'ogg' | 'opus'): Promise<{ bytes: Uint8Array; partial: boolean }> {
  if (size <= COMPRESSED_MAX_BYTES) {
    const bytes = Buffer.allocUnsafe(size)
    const { bytesRead } = await fh.read(bytes, 0, size, 0)
    return { bytes: bytes.subarray(0, bytesRead), partial: false }
  }
  if (kind !== 'mp3') {
    const bytes = Buffer.allocUnsafe(COMPRESSED_MAX_BYTES)
    const { bytesRead } = await fh.read(bytes, 0, COMPRESSED_MAX_BYTES, 0)
    return { bytes: bytes.subarray(0, bytesRead), partial: true }
  }
  // MP3 frames stand alone: windows spread over the file give a waveform of all of it from a bounded read.
  const windows = 64
  const each = Math.floor(COMPRESSED_MAX_BYTES / windows)
  const bytes = Buffer.allocUnsafe(each * windows)
  let len = 0
  for (let k = 0; k < windows; k++) {
    const { bytesRead } = await fh.read(bytes, len, each, Math.floor(((size - each) * k) / (windows - 1)))
    len += bytesRead
  }
  return { bytes: bytes.subarray(0, len), partial: false }
}

/**
 * Waveform peaks for display: n buckets, each the loudest sample in it. Reads a bounded number of bytes whatever
 * the file's size (WAV streamed and sampled, compressed audio capped), and runs in a worker (task 'audio-peaks')
 * when called through the app, so a long recording never stalls the main process. `sampled` says the peaks come
 * from windows of a large file; `partial` that only its start (COMPRESSED_MAX_BYTES) was decoded.
 */
export async function audioPeaks(file: string, n = 512): Promise<AudioResult<AudioPeaks & { sampled?: boolean; partial?: boolean }>> {
  let fh: FileHandle
  try {
    fh = await open(file, 'r')
  } catch {
    return { ok: false, code: 'missing', message: 'File not found' }
  }
  try {
    const size = (await fh.stat()).size
    const head = Buffer.alloc(256)
    const { bytesRead } = await fh.read(head, 0, 256, 0)
    const s = sniffBytes(head.subarray(0, bytesRead))
    const count = Math.max(1, Math.min(100_000, Math.floor(n) || 1))
    if (s?.ext === 'wav') {
      const layout = await wavLayout(fh, size)
      const r = layout ? await wavPeaks(fh, layout, count) : null
      if (!layout || !r || r.frames === 0) return { ok: false, code: 'corrupt', message: 'No audio samples could be decoded' }
      const codec = layout.format === 3 ? 'pcm_f' + layout.bits : 'pcm_s' + layout.bits
      return { ok: true, value: { peaks: r.peaks, sampleRate: layout.rate, channels: layout.channels, durationSec: r.frames / layout.rate, codec, ...(r.sampled ? { sampled: true } : {}) } }
    }
    const kind = s?.ext === 'mp3' ? 'mp3' : s?.ext === 'flac' ? 'flac' : s?.ext === 'ogg' ? (s.mime.includes('opus') ? 'opus' : 'ogg') : null
    if (!kind) return { ok: false, code: 'unsupported', message: `No peak decoder for ${s?.mime ?? 'this file'}` }
    const { bytes, partial } = await compressedBytes(fh, size, kind)
    let pcm: Pcm
    try {
      pcm = await decodeCompressed(bytes, kind)
    } catch (err) {
      return { ok: false, code: 'corrupt', message: `Cannot decode audio: ${(err as Error).message}` }
    }
    if (pcm.frames === 0) return { ok: false, code: 'corrupt', message: 'No audio samples could be decoded' }
    const chans = pcm.channels
    const peaks = bucketPeaks(pcm.frames, count, (f) => {
      let m = 0
      for (const ch of chans) {
        const v = Math.abs(ch[f])
        if (v > m) m = v
      }
      return m
    })
    // Sampled MP3 windows do not give the duration; the caller's probe (metadata) does.
    const sampled = kind === 'mp3' && size > COMPRESSED_MAX_BYTES
    return {
      ok: true,
      value: {
        peaks,
        sampleRate: pcm.sampleRate,
        channels: pcm.channelCount,
        durationSec: sampled || partial ? null : pcm.frames / pcm.sampleRate,
        codec: pcm.codec,
        ...(sampled ? { sampled: true } : {}),
        ...(partial ? { partial: true } : {})
      }
    }
  } finally {
    await fh.close()
  }
}
