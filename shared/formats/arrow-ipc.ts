// Apache Arrow IPC *stream* reader (the format of a Hugging Face `datasets.save_to_disk` folder's
// data-XXXXX-of-NNNNN.arrow files, written by pyarrow.ipc.new_stream). Pure TypeScript, no dependency: the
// Flatbuffers metadata (Message.fbs, Schema.fbs of the Arrow format) is read by hand with bounds checks, so a
// corrupt or truncated file is an ArrowError that names the byte offset, never a JavaScript TypeError.
//
// Reads the types such files use: null, bool, int 8–64 (signed/unsigned), float 16/32/64, utf8 / large_utf8,
// binary / large_binary / fixed_size_binary, list / large_list / fixed_size_list, struct, map, date, time,
// timestamp, duration, decimal 128/256, and dictionary-encoded columns. Not read (ArrowError): compressed bodies
// (LZ4/ZSTD), unions, run-end encoded and view types, big-endian files.
//
// Messages are located first (indexArrowStream reads only each message's header, the bodies are skipped), so a
// caller can read the record batches a window of rows needs and nothing else.

export class ArrowError extends Error {
  constructor(
    message: string,
    public offset: number
  ) {
    super(message)
    this.name = 'ArrowError'
  }
}

export type TimeUnit = 's' | 'ms' | 'us' | 'ns'

export type ArrowType =
  | { kind: 'null' }
  | { kind: 'bool' }
  | { kind: 'int'; bitWidth: 8 | 16 | 32 | 64; signed: boolean }
  | { kind: 'float'; bits: 16 | 32 | 64 }
  | { kind: 'utf8'; large: boolean }
  | { kind: 'binary'; large: boolean }
  | { kind: 'fixed-binary'; width: number }
  | { kind: 'list'; large: boolean }
  | { kind: 'fixed-list'; size: number }
  | { kind: 'struct' }
  | { kind: 'map' }
  | { kind: 'date'; unit: 'day' | 'ms' }
  | { kind: 'time'; unit: TimeUnit; bitWidth: 32 | 64 }
  | { kind: 'timestamp'; unit: TimeUnit; timezone: string | null }
  | { kind: 'duration'; unit: TimeUnit }
  | { kind: 'decimal'; precision: number; scale: number; bitWidth: 128 | 256 }

export interface ArrowField {
  name: string
  nullable: boolean
  type: ArrowType
  children: ArrowField[]
  metadata: Map<string, string>
  /** Set for a dictionary-encoded field: its values live in the dictionary `id`, its cells are `index` ints. */
  dictionary: { id: number; index: ArrowType & { kind: 'int' } } | null
}

export interface ArrowSchema {
  fields: ArrowField[]
  metadata: Map<string, string>
}

/** Where one message of the stream is: its Flatbuffers header [metaStart, metaStart+metaLength), then its body. */
export interface MessageRef {
  kind: 'record-batch' | 'dictionary-batch'
  metaStart: number
  metaLength: number
  bodyStart: number
  bodyLength: number
  /** Rows of a record batch (0 for a dictionary batch). */
  rows: number
}

export interface ArrowStreamIndex {
  schema: ArrowSchema
  messages: MessageRef[]
  /** Record batches only, in stream order, with the row each starts at. */
  batches: Array<MessageRef & { firstRow: number }>
  rowCount: number
}

/** Random access to the bytes of a file: `read(pos, len)` gives fewer bytes only at the end of the file. */
export type ReadAt = (pos: number, len: number) => Promise<Uint8Array>

// ---------------------------------------------------------------------------------------------------------------
// Flatbuffers: tables, vtables, vectors, strings (little-endian), with every access checked against the buffer.

class FB {
  readonly dv: DataView
  constructor(
    readonly b: Uint8Array,
    /** File offset of b[0], for error messages. */
    readonly base: number
  ) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength)
  }
  fail(at: number, what: string): never {
    throw new ArrowError(`Corrupt Arrow metadata at byte ${this.base + at}: ${what}`, this.base + at)
  }
  need(at: number, n: number, what: string): void {
    if (at < 0 || n < 0 || at + n > this.b.length)
      this.fail(Math.max(0, Math.min(at, this.b.length)), `${what} lies outside the message header`)
  }
  u8(at: number): number {
    this.need(at, 1, 'a byte')
    return this.b[at]
  }
  i16(at: number): number {
    this.need(at, 2, 'a short')
    return this.dv.getInt16(at, true)
  }
  u16(at: number): number {
    this.need(at, 2, 'a short')
    return this.dv.getUint16(at, true)
  }
  i32(at: number): number {
    this.need(at, 4, 'an int')
    return this.dv.getInt32(at, true)
  }
  u32(at: number): number {
    this.need(at, 4, 'an int')
    return this.dv.getUint32(at, true)
  }
  i64(at: number): number {
    this.need(at, 8, 'a long')
    const v = this.dv.getBigInt64(at, true)
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER))
      this.fail(at, 'a length beyond 2^53')
    return Number(v)
  }
  /** The table whose offset is stored at `at` (a uoffset). */
  deref(at: number): number {
    return at + this.u32(at)
  }
  /** Offset of field `id` of the table at `t`, or 0 when absent. */
  field(t: number, id: number): number {
    const vt = t - this.i32(t)
    const vtLen = this.u16(vt)
    if (vtLen < 4 || vtLen % 2) this.fail(vt, 'a bad vtable')
    const slot = 4 + id * 2
    if (slot + 2 > vtLen) return 0
    const off = this.u16(vt + slot)
    return off ? t + off : 0
  }
  table(t: number, id: number): number | null {
    const f = this.field(t, id)
    return f ? this.deref(f) : null
  }
  str(t: number, id: number): string | null {
    const f = this.field(t, id)
    if (!f) return null
    const s = this.deref(f)
    const n = this.u32(s)
    this.need(s + 4, n, 'a string')
    return new TextDecoder().decode(this.b.subarray(s + 4, s + 4 + n))
  }
  /** [start of elements, count] of the vector in field `id`, or null when absent. */
  vec(t: number, id: number, elemSize: number): [number, number] | null {
    const f = this.field(t, id)
    if (!f) return null
    const v = this.deref(f)
    const n = this.u32(v)
    this.need(v + 4, n * elemSize, 'a vector')
    return [v + 4, n]
  }
  scalar(t: number, id: number, size: 1 | 2 | 4 | 8, dflt: number, signed = true): number {
    const f = this.field(t, id)
    if (!f) return dflt
    if (size === 1) return this.u8(f)
    if (size === 2) return signed ? this.i16(f) : this.u16(f)
    if (size === 4) return signed ? this.i32(f) : this.u32(f)
    return this.i64(f)
  }
}

const TIME_UNITS: TimeUnit[] = ['s', 'ms', 'us', 'ns']

function keyValues(fb: FB, t: number, id: number): Map<string, string> {
  const out = new Map<string, string>()
  const v = fb.vec(t, id, 4)
  if (!v) return out
  for (let i = 0; i < v[1]; i++) {
    const kv = fb.deref(v[0] + i * 4)
    out.set(fb.str(kv, 0) ?? '', fb.str(kv, 1) ?? '')
  }
  return out
}

function intType(fb: FB, t: number): ArrowType & { kind: 'int' } {
  const bw = fb.scalar(t, 0, 4, 0)
  if (bw !== 8 && bw !== 16 && bw !== 32 && bw !== 64) fb.fail(t, `an integer of ${bw} bits`)
  return { kind: 'int', bitWidth: bw, signed: fb.scalar(t, 1, 1, 0) !== 0 }
}

const TYPE_NAMES: Record<number, string> = {
  14: 'union',
  22: 'run-end encoded',
  23: 'binary view',
  24: 'string view',
  25: 'list view',
  26: 'large list view',
  11: 'interval'
}

function fieldType(fb: FB, f: number, name: string): ArrowType {
  const code = fb.scalar(f, 2, 1, 0)
  const t = fb.table(f, 3)
  const at = t ?? f
  switch (code) {
    case 1:
      return { kind: 'null' }
    case 2:
      return intType(fb, at)
    case 3: {
      const p = fb.scalar(at, 0, 2, 0)
      return { kind: 'float', bits: p === 0 ? 16 : p === 1 ? 32 : 64 }
    }
    case 4:
      return { kind: 'binary', large: false }
    case 5:
      return { kind: 'utf8', large: false }
    case 6:
      return { kind: 'bool' }
    case 7: {
      const bw = fb.scalar(at, 2, 4, 128)
      if (bw !== 128 && bw !== 256) fb.fail(at, `a decimal of ${bw} bits`)
      return { kind: 'decimal', precision: fb.scalar(at, 0, 4, 0), scale: fb.scalar(at, 1, 4, 0), bitWidth: bw }
    }
    case 8:
      return { kind: 'date', unit: fb.scalar(at, 0, 2, 1) === 0 ? 'day' : 'ms' }
    case 9: {
      const bw = fb.scalar(at, 1, 4, 32)
      return { kind: 'time', unit: TIME_UNITS[fb.scalar(at, 0, 2, 1)] ?? 'ms', bitWidth: bw === 64 ? 64 : 32 }
    }
    case 10:
      return { kind: 'timestamp', unit: TIME_UNITS[fb.scalar(at, 0, 2, 0)] ?? 's', timezone: t ? fb.str(t, 1) : null }
    case 12:
      return { kind: 'list', large: false }
    case 13:
      return { kind: 'struct' }
    case 15:
      return { kind: 'fixed-binary', width: fb.scalar(at, 0, 4, 0) }
    case 16:
      return { kind: 'fixed-list', size: fb.scalar(at, 0, 4, 0) }
    case 17:
      return { kind: 'map' }
    case 18:
      return { kind: 'duration', unit: TIME_UNITS[fb.scalar(at, 0, 2, 1)] ?? 'ms' }
    case 19:
      return { kind: 'binary', large: true }
    case 20:
      return { kind: 'utf8', large: true }
    case 21:
      return { kind: 'list', large: true }
    default:
      throw new ArrowError(
        `Column "${name}": the Arrow type ${TYPE_NAMES[code] ?? `#${code}`} is not supported`,
        fb.base + f
      )
  }
}

function readField(fb: FB, f: number, depth: number): ArrowField {
  if (depth > 64) fb.fail(f, 'fields nested more than 64 deep')
  const name = fb.str(f, 0) ?? ''
  const dict = fb.table(f, 4)
  let dictionary: ArrowField['dictionary'] = null
  if (dict !== null) {
    const idx = fb.table(dict, 1)
    dictionary = {
      id: fb.scalar(dict, 0, 8, 0),
      index: idx === null ? { kind: 'int', bitWidth: 32, signed: true } : intType(fb, idx)
    }
  }
  const children: ArrowField[] = []
  const cv = fb.vec(f, 5, 4)
  if (cv) for (let i = 0; i < cv[1]; i++) children.push(readField(fb, fb.deref(cv[0] + i * 4), depth + 1))
  return {
    name,
    nullable: fb.scalar(f, 1, 1, 0) !== 0,
    type: fieldType(fb, f, name),
    children,
    metadata: keyValues(fb, f, 6),
    dictionary
  }
}

function readSchema(fb: FB, s: number): ArrowSchema {
  if (fb.scalar(s, 0, 2, 0) !== 0) throw new ArrowError('Big-endian Arrow files are not supported', fb.base + s)
  const fields: ArrowField[] = []
  const v = fb.vec(s, 1, 4)
  if (v) for (let i = 0; i < v[1]; i++) fields.push(readField(fb, fb.deref(v[0] + i * 4), 0))
  return { fields, metadata: keyValues(fb, s, 2) }
}

/** The root Message table: [header type, header table, body length]. */
function message(fb: FB): { type: number; header: number | null; bodyLength: number } {
  const root = fb.deref(0)
  return { type: fb.scalar(root, 1, 1, 0), header: fb.table(root, 2), bodyLength: fb.scalar(root, 3, 8, 0) }
}

// ---------------------------------------------------------------------------------------------------------------
// The stream: [0xFFFFFFFF][int32 metadata length][Message, padded][body] …, ended by a zero length or the file's
// end. Streams written before Arrow 0.15 have no 0xFFFFFFFF continuation marker; both are read.

async function exact(read: ReadAt, pos: number, len: number, what: string): Promise<Uint8Array> {
  const b = await read(pos, len)
  if (b.length < len)
    throw new ArrowError(
      `The Arrow stream ends inside ${what} (byte ${pos + b.length}, ${len - b.length} bytes missing)`,
      pos + b.length
    )
  return b
}

/** Locates every message of the stream; reads the schema and each header, skips the bodies. */
export async function indexArrowStream(read: ReadAt, size: number): Promise<ArrowStreamIndex> {
  let pos = 0
  let schema: ArrowSchema | null = null
  const messages: MessageRef[] = []
  const batches: ArrowStreamIndex['batches'] = []
  let rowCount = 0
  while (pos < size) {
    if (size - pos < 4) throw new ArrowError(`The Arrow stream ends inside a message length (byte ${pos})`, pos)
    let head = await exact(read, pos, Math.min(8, size - pos), 'a message length')
    let dv = new DataView(head.buffer, head.byteOffset, head.byteLength)
    let lenAt = pos
    if (dv.getUint32(0, true) === 0xffffffff) {
      if (head.length < 8) throw new ArrowError(`The Arrow stream ends inside a message length (byte ${pos})`, pos)
      lenAt = pos + 4
      head = head.subarray(4)
      dv = new DataView(head.buffer, head.byteOffset, head.byteLength)
    }
    const metaLength = dv.getInt32(0, true)
    if (metaLength === 0) break
    if (metaLength < 0 || lenAt + 4 + metaLength > size) {
      if (pos === 0) throw new ArrowError('Not an Arrow IPC stream (no message header at the start of the file)', 0)
      throw new ArrowError(
        `Message header at byte ${lenAt} claims ${metaLength} bytes; the file has ${size - lenAt - 4} left`,
        lenAt
      )
    }
    const metaStart = lenAt + 4
    const fb = new FB(await exact(read, metaStart, metaLength, 'a message header'), metaStart)
    const m = message(fb)
    const bodyStart = metaStart + metaLength
    if (bodyStart + m.bodyLength > size)
      throw new ArrowError(
        `Message body at byte ${bodyStart} claims ${m.bodyLength} bytes; the file has ${size - bodyStart} left`,
        bodyStart
      )
    const header = m.header
    if (header === null)
      throw new ArrowError(`Corrupt Arrow metadata at byte ${metaStart}: a message without a header`, metaStart)
    if (m.type === 1) {
      if (schema) fb.fail(0, 'a second schema message')
      schema = readSchema(fb, header)
    } else if (m.type === 2 || m.type === 3) {
      if (!schema) throw new ArrowError(`A record batch at byte ${pos} comes before the schema`, pos)
      const rb = m.type === 3 ? header : fb.table(header, 1)
      const rows = m.type === 3 ? fb.scalar(header, 0, 8, 0) : 0
      const ref: MessageRef = {
        kind: m.type === 3 ? 'record-batch' : 'dictionary-batch',
        metaStart,
        metaLength,
        bodyStart,
        bodyLength: m.bodyLength,
        rows
      }
      if (rb === null) fb.fail(0, 'a dictionary batch without data')
      messages.push(ref)
      if (m.type === 3) {
        batches.push({ ...ref, firstRow: rowCount })
        rowCount += rows
      }
    } else throw new ArrowError(`Unsupported Arrow message (type ${m.type}) at byte ${pos}`, pos)
    pos = bodyStart + m.bodyLength
  }
  if (!schema) throw new ArrowError('Not an Arrow IPC stream (it holds no schema)', 0)
  return { schema, messages, batches, rowCount }
}

// ---------------------------------------------------------------------------------------------------------------
// Record batch bodies → row values.

export interface ValueOptions {
  /** Wraps float values (e.g. as Python floats, so 1.0 stays a float); default: plain numbers. */
  float?: (x: number) => unknown
  /** 64-bit integers beyond 2^53: 'bigint' (default) keeps them exact, 'string' gives their decimal text. */
  bigInt?: 'bigint' | 'string'
}

interface Cursor {
  fb: FB
  nodes: [number, number]
  buffers: [number, number]
  node: number
  buffer: number
  body: Uint8Array
  bodyStart: number
}

/** A decoded column: value(i) for i in [0, length). */
interface Column {
  length: number
  value(i: number): unknown
}

function nextNode(c: Cursor, name: string): { length: number; nulls: number } {
  if (c.node >= c.nodes[1]) throw new ArrowError(`Record batch has too few field nodes (column "${name}")`, c.fb.base)
  const at = c.nodes[0] + c.node++ * 16
  return { length: c.fb.i64(at), nulls: c.fb.i64(at + 8) }
}

function nextBuffer(c: Cursor, name: string): Uint8Array {
  if (c.buffer >= c.buffers[1]) throw new ArrowError(`Record batch has too few buffers (column "${name}")`, c.fb.base)
  const at = c.buffers[0] + c.buffer++ * 16
  const off = c.fb.i64(at)
  const len = c.fb.i64(at + 8)
  if (off < 0 || len < 0 || off + len > c.body.length)
    throw new ArrowError(
      `Column "${name}": a buffer [${off}, ${off + len}) lies outside the message body (${c.body.length} bytes) at byte ${c.bodyStart}`,
      c.bodyStart + Math.max(0, Math.min(off, c.body.length))
    )
  return c.body.subarray(off, off + len)
}

function dv(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength)
}

function validity(buf: Uint8Array, nulls: number, length: number, name: string, c: Cursor): (i: number) => boolean {
  if (nulls === 0) return () => true
  if (buf.length * 8 < length)
    throw new ArrowError(`Column "${name}": the validity bitmap is shorter than its ${length} rows`, c.bodyStart)
  return (i) => (buf[i >> 3] & (1 << (i & 7))) !== 0
}

function need(buf: Uint8Array, bytes: number, name: string, what: string, c: Cursor): void {
  if (buf.length < bytes)
    throw new ArrowError(
      `Column "${name}": the ${what} buffer holds ${buf.length} bytes, ${bytes} are needed`,
      c.bodyStart
    )
}

function offsetsOf(buf: Uint8Array, length: number, large: boolean, name: string, c: Cursor): (i: number) => number {
  if (length === 0) return () => 0
  const w = large ? 8 : 4
  need(buf, (length + 1) * w, name, 'offsets', c)
  const d = dv(buf)
  return large
    ? (i) => {
        const v = d.getBigInt64(i * 8, true)
        return Number(v)
      }
    : (i) => d.getInt32(i * 4, true)
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1
  const e = (h >> 10) & 0x1f
  const f = h & 0x3ff
  if (e === 0) return s * 2 ** -14 * (f / 1024)
  if (e === 31) return f ? Number.NaN : s * Infinity
  return s * 2 ** (e - 15) * (1 + f / 1024)
}

const UNIT_MS: Record<TimeUnit, number> = { s: 1000, ms: 1, us: 1e-3, ns: 1e-6 }

function isoOf(ms: number): string | null {
  const d = new Date(ms)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}

function decimalText(raw: bigint, scale: number): string {
  const neg = raw < 0n
  let digits = (neg ? -raw : raw).toString()
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0')
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`
  } else if (scale < 0) digits += '0'.repeat(-scale)
  return (neg ? '-' : '') + digits
}

function readColumn(c: Cursor, f: ArrowField, dicts: Map<number, Column>, o: ValueOptions): Column {
  const name = f.name
  const { length, nulls } = nextNode(c, name)
  const t = f.dictionary ? f.dictionary.index : f.type
  if (t.kind === 'null') return { length, value: () => null }
  const valid = validity(nextBuffer(c, name), nulls, length, name, c)
  const big = (v: bigint): unknown =>
    v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(v)
      : o.bigInt === 'string'
        ? v.toString()
        : v
  const wrapF = o.float ?? ((x: number) => x)
  let value: (i: number) => unknown
  switch (t.kind) {
    case 'bool': {
      const data = nextBuffer(c, name)
      need(data, Math.ceil(length / 8), name, 'data', c)
      value = (i) => (data[i >> 3] & (1 << (i & 7))) !== 0
      break
    }
    case 'int': {
      const data = nextBuffer(c, name)
      const w = t.bitWidth / 8
      need(data, length * w, name, 'data', c)
      const d = dv(data)
      const get =
        w === 1
          ? (i: number) => (t.signed ? d.getInt8(i) : d.getUint8(i))
          : w === 2
            ? (i: number) => (t.signed ? d.getInt16(i * 2, true) : d.getUint16(i * 2, true))
            : w === 4
              ? (i: number) => (t.signed ? d.getInt32(i * 4, true) : d.getUint32(i * 4, true))
              : (i: number) => big(t.signed ? d.getBigInt64(i * 8, true) : d.getBigUint64(i * 8, true))
      if (f.dictionary) {
        const dict = dicts.get(f.dictionary.id)
        if (!dict)
          throw new ArrowError(
            `Column "${name}": dictionary ${f.dictionary.id} was not sent before the batch`,
            c.bodyStart
          )
        value = (i) => {
          const k = Number(get(i))
          if (!(k >= 0 && k < dict.length))
            throw new ArrowError(
              `Column "${name}": dictionary index ${k} is outside its ${dict.length} values`,
              c.bodyStart
            )
          return dict.value(k)
        }
      } else value = get
      break
    }
    case 'float': {
      const data = nextBuffer(c, name)
      const w = t.bits / 8
      need(data, length * w, name, 'data', c)
      const d = dv(data)
      value =
        w === 2
          ? (i) => wrapF(halfToFloat(d.getUint16(i * 2, true)))
          : w === 4
            ? (i) => wrapF(d.getFloat32(i * 4, true))
            : (i) => wrapF(d.getFloat64(i * 8, true))
      break
    }
    case 'date':
    case 'time':
    case 'timestamp':
    case 'duration': {
      const data = nextBuffer(c, name)
      const w = t.kind === 'date' ? (t.unit === 'day' ? 4 : 8) : t.kind === 'time' ? t.bitWidth / 8 : 8
      need(data, length * w, name, 'data', c)
      const d = dv(data)
      const raw = (i: number): number => (w === 4 ? d.getInt32(i * 4, true) : Number(d.getBigInt64(i * 8, true)))
      if (t.kind === 'date') value = (i) => isoOf(t.unit === 'day' ? raw(i) * 86400000 : raw(i))?.slice(0, 10) ?? null
      else if (t.kind === 'timestamp') value = (i) => isoOf(raw(i) * UNIT_MS[t.unit])
      else value = raw
      break
    }
    case 'decimal': {
      const data = nextBuffer(c, name)
      const w = t.bitWidth / 8
      need(data, length * w, name, 'data', c)
      const d = dv(data)
      value = (i) => {
        let v = 0n
        for (let k = w / 8 - 1; k >= 0; k--) v = (v << 64n) | d.getBigUint64(i * w + k * 8, true)
        if (v >> BigInt(t.bitWidth - 1)) v -= 1n << BigInt(t.bitWidth)
        return decimalText(v, t.scale)
      }
      break
    }
    case 'fixed-binary': {
      const data = nextBuffer(c, name)
      need(data, length * t.width, name, 'data', c)
      value = (i) => data.slice(i * t.width, (i + 1) * t.width)
      break
    }
    case 'utf8':
    case 'binary': {
      const off = offsetsOf(nextBuffer(c, name), length, t.large, name, c)
      const data = nextBuffer(c, name)
      const dec = new TextDecoder()
      const span = (i: number): [number, number] => {
        const a = off(i)
        const b = off(i + 1)
        if (a < 0 || b < a || b > data.length)
          throw new ArrowError(
            `Column "${name}": value ${i} spans [${a}, ${b}) outside its ${data.length}-byte data buffer`,
            c.bodyStart
          )
        return [a, b]
      }
      value = t.kind === 'utf8' ? (i) => dec.decode(data.subarray(...span(i))) : (i) => data.slice(...span(i))
      break
    }
    case 'list':
    case 'map': {
      const off = offsetsOf(nextBuffer(c, name), length, t.kind === 'list' && t.large, name, c)
      if (f.children.length !== 1) throw new ArrowError(`Column "${name}": a list needs one child field`, c.bodyStart)
      const child = readColumn(c, f.children[0], dicts, o)
      value = (i) => {
        const a = off(i)
        const b = off(i + 1)
        if (a < 0 || b < a || b > child.length)
          throw new ArrowError(
            `Column "${name}": list ${i} spans [${a}, ${b}) outside its ${child.length} child values`,
            c.bodyStart
          )
        const out: unknown[] = []
        for (let k = a; k < b; k++) out.push(child.value(k))
        // A map is a list of {key, value} structs; pyarrow's to_pylist gives it as [(key, value), …].
        return t.kind === 'map' ? out.map((e) => Object.values(e as Record<string, unknown>)) : out
      }
      break
    }
    case 'fixed-list': {
      if (f.children.length !== 1) throw new ArrowError(`Column "${name}": a list needs one child field`, c.bodyStart)
      const child = readColumn(c, f.children[0], dicts, o)
      if (child.length < length * t.size)
        throw new ArrowError(
          `Column "${name}": ${length} lists of ${t.size} need ${length * t.size} child values, ${child.length} are present`,
          c.bodyStart
        )
      value = (i) => {
        const out: unknown[] = []
        for (let k = i * t.size; k < (i + 1) * t.size; k++) out.push(child.value(k))
        return out
      }
      break
    }
    case 'struct': {
      const kids = f.children.map((ch) => ({ name: ch.name, col: readColumn(c, ch, dicts, o) }))
      for (const k of kids)
        if (k.col.length < length)
          throw new ArrowError(
            `Column "${name}": its field "${k.name}" holds ${k.col.length} values for ${length} rows`,
            c.bodyStart
          )
      value = (i) => {
        const out: Record<string, unknown> = {}
        for (const k of kids) out[k.name] = k.col.value(i)
        return out
      }
      break
    }
  }
  return { length, value: (i) => (valid(i) ? value(i) : null) }
}

/** The record batch (or dictionary batch's data) of one message, its columns decoded lazily. */
function batchColumns(
  meta: Uint8Array,
  ref: MessageRef,
  body: Uint8Array,
  fields: ArrowField[],
  dicts: Map<number, Column>,
  o: ValueOptions
): Column[] {
  const fb = new FB(meta, ref.metaStart)
  const m = message(fb)
  const rb = m.type === 3 ? m.header! : fb.table(m.header!, 1)!
  if (fb.table(rb, 3) !== null)
    throw new ArrowError(
      `The record batch at byte ${ref.metaStart} is compressed (LZ4/ZSTD bodies are not supported)`,
      ref.metaStart
    )
  const nodes = fb.vec(rb, 1, 16) ?? [0, 0]
  const buffers = fb.vec(rb, 2, 16) ?? [0, 0]
  const c: Cursor = { fb, nodes, buffers, node: 0, buffer: 0, body, bodyStart: ref.bodyStart }
  return fields.map((f) => readColumn(c, f, dicts, o))
}

/** Reads the stream's rows (all, or the record batches that hold rows [start, end)). */
export class ArrowStreamReader {
  private dicts: Map<number, Column> | null = null
  constructor(
    readonly index: ArrowStreamIndex,
    private read: ReadAt,
    private opts: ValueOptions = {}
  ) {}

  static async open(read: ReadAt, size: number, opts: ValueOptions = {}): Promise<ArrowStreamReader> {
    return new ArrowStreamReader(await indexArrowStream(read, size), read, opts)
  }

  /** A reader over bytes held in memory. */
  static fromBytes(bytes: Uint8Array, opts: ValueOptions = {}): Promise<ArrowStreamReader> {
    return ArrowStreamReader.open(async (pos, len) => bytes.subarray(pos, pos + len), bytes.length, opts)
  }

  get schema(): ArrowSchema {
    return this.index.schema
  }

  get rowCount(): number {
    return this.index.rowCount
  }

  private async load(ref: MessageRef): Promise<{ meta: Uint8Array; body: Uint8Array }> {
    const meta = await exact(this.read, ref.metaStart, ref.metaLength, 'a message header')
    const body = await exact(this.read, ref.bodyStart, ref.bodyLength, 'a message body')
    return { meta, body }
  }

  /** Dictionaries, read once (replacements and deltas applied in stream order). */
  private async dictionaries(): Promise<Map<number, Column>> {
    if (this.dicts) return this.dicts
    const dicts = new Map<number, Column>()
    const byId = new Map<number, ArrowField>()
    const walk = (fs: ArrowField[]): void => {
      for (const f of fs) {
        if (f.dictionary) byId.set(f.dictionary.id, f)
        walk(f.children)
      }
    }
    walk(this.index.schema.fields)
    for (const ref of this.index.messages) {
      if (ref.kind !== 'dictionary-batch') continue
      const { meta, body } = await this.load(ref)
      const fb = new FB(meta, ref.metaStart)
      const h = message(fb).header!
      const id = fb.scalar(h, 0, 8, 0)
      const isDelta = fb.scalar(h, 2, 1, 0) !== 0
      const f = byId.get(id)
      if (!f) throw new ArrowError(`Dictionary batch ${id} at byte ${ref.metaStart} belongs to no field`, ref.metaStart)
      const valueField: ArrowField = { ...f, dictionary: null }
      const [col] = batchColumns(meta, ref, body, [valueField], dicts, this.opts)
      const prev = dicts.get(id)
      if (isDelta && prev) {
        const a = prev
        dicts.set(id, {
          length: a.length + col.length,
          value: (i) => (i < a.length ? a.value(i) : col.value(i - a.length))
        })
      } else dicts.set(id, col)
    }
    return (this.dicts = dicts)
  }

  /** Rows [start, end) as objects keyed by column name (column order = schema order). */
  async rows(start = 0, end = this.rowCount): Promise<Record<string, unknown>[]> {
    const a = Math.max(0, start)
    const b = Math.min(end, this.rowCount)
    const out: Record<string, unknown>[] = []
    if (a >= b) return out
    const dicts = await this.dictionaries()
    const fields = this.index.schema.fields
    for (const batch of this.index.batches) {
      const lo = Math.max(a, batch.firstRow)
      const hi = Math.min(b, batch.firstRow + batch.rows)
      if (lo >= hi) continue
      const { meta, body } = await this.load(batch)
      const cols = batchColumns(meta, batch, body, fields, dicts, this.opts)
      cols.forEach((col, k) => {
        if (col.length < batch.rows)
          throw new ArrowError(
            `Column "${fields[k].name}" holds ${col.length} values for a batch of ${batch.rows} rows (batch at byte ${batch.metaStart})`,
            batch.metaStart
          )
      })
      for (let i = lo; i < hi; i++) {
        const row: Record<string, unknown> = {}
        cols.forEach((col, k) => (row[fields[k].name] = col.value(i - batch.firstRow)))
        out.push(row)
      }
    }
    return out
  }
}
