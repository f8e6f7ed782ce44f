// `list(set(values))` in CPython's order, for the PPL labels BaseRetriever.get_labels takes from the output
// column. A set iterates in hash-table slot order, so the order follows from the hashes and the insertion
// sequence (Objects/setobject.c: set_add_entry, set_table_resize, set_insert_clean). Numbers and bools hash
// deterministically; str hashes are randomised per process, so their order cannot be reproduced.
import { PyFloat } from '../python/json'

const MASK64 = (1n << 64n) - 1n
const HASH_BITS = 61n
const MODULUS = (1n << HASH_BITS) - 1n
const LINEAR_PROBES = 9
const PERTURB_SHIFT = 5n
const MINSIZE = 8

/** CPython hash() of an int, as an unsigned 64-bit value (Py_hash_t reinterpreted as size_t). */
function intHash(n: bigint): bigint {
  const neg = n < 0n
  let h = (neg ? -n : n) % MODULUS
  if (neg) h = -h
  if (h === -1n) h = -2n
  return h & MASK64
}

/** CPython _Py_HashDouble for a finite float. */
function floatHash(v: number): bigint {
  if (Number.isInteger(v)) return intHash(BigInt(v))
  let m = Math.abs(v)
  // frexp: m in [0.5, 1), v = m * 2**e
  let e = Math.floor(Math.log2(m)) + 1
  m = m / 2 ** e
  if (m >= 1) {
    m /= 2
    e += 1
  } else if (m < 0.5) {
    m *= 2
    e -= 1
  }
  let x = 0n
  while (m) {
    x = ((x << 28n) & MODULUS) | (x >> (HASH_BITS - 28n))
    m *= 268435456
    e -= 28
    const y = Math.floor(m)
    m -= y
    x += BigInt(y)
    if (x >= MODULUS) x -= MODULUS
  }
  const eb = BigInt(e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61))
  x = ((x << eb) & MODULUS) | (x >> (HASH_BITS - eb))
  if (v < 0) x = -x
  if (x === -1n) x = -2n
  return x & MASK64
}

/** The hash of a label value, or undefined when CPython's is not reproducible (str, None, containers). */
function hashOf(v: unknown): bigint | undefined {
  if (typeof v === 'boolean') return v ? 1n : 0n
  if (typeof v === 'bigint') return intHash(v)
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) ? intHash(BigInt(v)) : floatHash(v)) : undefined
  if (v instanceof PyFloat) return Number.isFinite(v.value) ? floatHash(v.value) : undefined
  return undefined
}

interface Slot {
  key: unknown
  hash: bigint
}

function insertClean(table: Array<Slot | null>, mask: number, s: Slot): void {
  let perturb = s.hash
  let i = Number(s.hash & BigInt(mask))
  for (;;) {
    if (table[i] === null) {
      table[i] = s
      return
    }
    if (i + LINEAR_PROBES <= mask) {
      for (let j = 1; j <= LINEAR_PROBES; j++) {
        if (table[i + j] === null) {
          table[i + j] = s
          return
        }
      }
    }
    perturb >>= PERTURB_SHIFT
    i = Number((BigInt(i) * 5n + 1n + perturb) & BigInt(mask))
  }
}

/**
 * `list(set(values))` as CPython orders it, with `eq` for Python equality (1 == 1.0 == True: the first one
 * inserted stays). Undefined when some value's hash is not reproducible.
 */
export function pySetOrder(values: readonly unknown[], eq: (a: unknown, b: unknown) => boolean): unknown[] | undefined {
  let table: Array<Slot | null> = new Array(MINSIZE).fill(null)
  let mask = MINSIZE - 1
  let used = 0
  for (const key of values) {
    const hash = hashOf(key)
    if (hash === undefined) return undefined
    let perturb = hash
    let i = Number(hash & BigInt(mask))
    let placed = false
    while (!placed) {
      const probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0
      for (let j = 0; j <= probes; j++) {
        const e = table[i + j]
        if (e === null) {
          table[i + j] = { key, hash }
          used++
          // No deletions happen here, so fill == used.
          if (used * 5 >= mask * 3) {
            const minused = used > 50000 ? used * 2 : used * 4
            let size = MINSIZE
            while (size <= minused) size <<= 1
            const old = table
            table = new Array(size).fill(null)
            mask = size - 1
            for (const s of old) if (s !== null) insertClean(table, mask, s)
          }
          placed = true
          break
        }
        if (e.hash === hash && eq(e.key, key)) {
          placed = true
          break
        }
      }
      if (placed) break
      perturb >>= PERTURB_SHIFT
      i = Number((BigInt(i) * 5n + 1n + perturb) & BigInt(mask))
    }
  }
  const out: unknown[] = []
  for (const s of table) if (s !== null) out.push(s.key)
  return out
}
