// `np.argsort(float64_array)` as numpy 2.x runs it on an x86-64 CPU with AVX-512 (Skylake-X and later): numpy
// dispatches the default 'quicksort' argsort of 64-bit types to Intel's x86-simd-sort (`avx512_argsort`), whose
// order of equal keys differs from numpy's generic introsort (numpy-argsort.ts). Ties decide which in-context
// examples BM25Retriever picks, so this follows that code lane by lane: a bitonic network over 8-lane registers
// for ranges of up to 256 elements, vectorised partitioning around a median-of-8 pivot above that, and libstdc++'s
// std::sort when the recursion budget runs out (many equal scores get there).
// Source: intel/x86-simd-sort 6a7a01d (src/xss-common-argsort.h, xss-network-keyvaluesort.hpp, xss-reg-networks.hpp,
// avx512-64bit-common.h), BSD-3-Clause, Copyright (C) 2022 Intel Corporation; libstdc++'s bits/stl_algo.h and
// bits/stl_heap.h (GCC 12). Checked against numpy 2.4.6 on an AVX512_ICL CPU in test/unit/engine/x86-argsort.test.ts.

const LANES = 8
type Reg = number[]
type Mask = number

// Lane permutations of the 64-bit swizzles (avx512_64bit_swizzle_ops): swap_n<2> swaps neighbours, swap_n<4> pairs,
// swap_n<8> halves; reverse_n<4> reverses each half, reverse_n<8> (vtype::reverse) the whole register.
const SWAP2 = [1, 0, 3, 2, 5, 4, 7, 6]
const SWAP4 = [2, 3, 0, 1, 6, 7, 4, 5]
const SWAP8 = [4, 5, 6, 7, 0, 1, 2, 3]
const REV4 = [3, 2, 1, 0, 7, 6, 5, 4]
const REV8 = [7, 6, 5, 4, 3, 2, 1, 0]

const perm = (v: Reg, p: number[]): Reg => p.map((i) => v[i])
// _mm512_min_pd / _mm512_max_pd: the second operand when the comparison is false (equal keys, NaN).
const vmin = (x: Reg, y: Reg): Reg => x.map((a, i) => (a < y[i] ? a : y[i]))
const vmax = (x: Reg, y: Reg): Reg => x.map((a, i) => (a > y[i] ? a : y[i]))
const veq = (x: Reg, y: Reg): Mask => x.reduce((m, a, i) => (a === y[i] ? m | (1 << i) : m), 0)
/** _mm512_mask_mov: lanes of `y` where the mask is set, of `x` elsewhere. */
const maskMov = (x: Reg, m: Mask, y: Reg): Reg => x.map((a, i) => ((m >> i) & 1 ? y[i] : a))

/** cmp_merge for keys with their indices: lanes in `mask` take the max, the others the min; an index follows its key. */
function cmpMerge(keys: Reg, idx: Reg, p: number[], mask: Mask): [Reg, Reg] {
  const k2 = perm(keys, p)
  const i2 = perm(idx, p)
  const merged = maskMov(vmin(k2, keys), mask, vmax(k2, keys))
  return [merged, maskMov(i2, veq(merged, keys), idx)]
}

/** sort_reg_8lanes (key + index): the bitonic sorting network inside one register. */
function sortReg(keys: Reg, idx: Reg): [Reg, Reg] {
  let r: [Reg, Reg] = [keys, idx]
  for (const [p, m] of [
    [SWAP2, 0xaa],
    [REV4, 0xcc],
    [SWAP2, 0xaa],
    [REV8, 0xf0],
    [SWAP4, 0xcc],
    [SWAP2, 0xaa]
  ] as [number[], number][])
    r = cmpMerge(r[0], r[1], p, m)
  return r
}

/** bitonic_merge_reg_8lanes: the half cleaners of a bitonic register. */
function mergeReg(keys: Reg, idx: Reg): [Reg, Reg] {
  let r: [Reg, Reg] = [keys, idx]
  for (const [p, m] of [
    [SWAP8, 0xf0],
    [SWAP4, 0xcc],
    [SWAP2, 0xaa]
  ] as [number[], number][])
    r = cmpMerge(r[0], r[1], p, m)
  return r
}

/** COEX of two registers: lane-wise min to the first, max to the second; equal keys keep their indices. */
function coex(k: Reg[], v: Reg[], a: number, b: number): void {
  const t1 = vmin(k[a], k[b])
  const t2 = vmax(k[a], k[b])
  const eq = veq(t1, k[a])
  const i1 = maskMov(v[b], eq, v[a])
  const i2 = maskMov(v[a], eq, v[b])
  k[a] = t1
  k[b] = t2
  v[a] = i1
  v[b] = i2
}

function mergeNVec(k: Reg[], v: Reg[], off: number, n: number): void {
  for (let i = 0; i < n / 2; i++) {
    const hi = off + n - i - 1
    k[hi] = perm(k[hi], REV8)
    v[hi] = perm(v[hi], REV8)
    coex(k, v, off + i, hi)
    k[hi] = perm(k[hi], REV8)
    v[hi] = perm(v[hi], REV8)
  }
  for (let num = n / 2; num >= 2; num /= 2)
    for (let j = 0; j < n; j += num) for (let i = 0; i < num / 2; i++) coex(k, v, off + i + j, off + i + j + num / 2)
  for (let i = 0; i < n; i++) [k[off + i], v[off + i]] = mergeReg(k[off + i], v[off + i])
}

/** argsort_n<…, 256>: arg[lo .. lo+n) (n ≤ 256) sorted by a bitonic network over ⌈n/8⌉ registers (a power of two). */
function argsortN(arr: ArrayLike<number>, arg: number[], lo: number, n: number): void {
  let numVecs = 32
  while (numVecs > 1 && n * 2 <= numVecs * LANES) numVecs /= 2
  const k: Reg[] = []
  const v: Reg[] = []
  // Lanes past the end load +inf keys (zmm_max) and the largest index; they sort last and are not stored.
  for (let r = 0; r < numVecs; r++) {
    const keys: Reg = []
    const idx: Reg = []
    for (let l = 0; l < LANES; l++) {
      const at = r * LANES + l
      if (at < n) {
        idx.push(arg[lo + at])
        keys.push(arr[arg[lo + at]])
      } else {
        idx.push(Number.MAX_SAFE_INTEGER)
        keys.push(Infinity)
      }
    }
    ;[k[r], v[r]] = sortReg(keys, idx)
  }
  for (let per = 2; per <= numVecs; per *= 2) for (let i = 0; i < numVecs / per; i++) mergeNVec(k, v, i * per, per)
  for (let at = 0; at < n; at++) arg[lo + at] = v[Math.floor(at / LANES)][at % LANES]
}

/** get_pivot_64bit: the 5th smallest of 8 evenly spaced keys (or the last key of a short range). */
function pivotOf(arr: ArrayLike<number>, arg: number[], left: number, right: number): number {
  if (right - left < LANES) return arr[arg[right]]
  const size = Math.floor((right - left) / 8)
  const sample: number[] = []
  for (let i = 1; i <= 8; i++) sample.push(arr[arg[left + i * size]])
  sample.sort((a, b) => a - b)
  return sample[4]
}

/**
 * argpartition_unrolled<…, 4> over arg[left, right): indices of keys below the pivot first, then the rest, moved
 * as the vector code moves them (compress-stores in lane order, loads from whichever side has less room).
 * Returns the split point and the range's smallest and biggest keys.
 */
function partition(arr: ArrayLike<number>, arg: number[], left: number, right: number, pivot: number): { at: number; smallest: number; biggest: number } {
  const UNROLL = 4
  const block = UNROLL * LANES
  let smallest = Infinity
  let biggest = -Infinity
  for (let i = (right - left) % block; i > 0; --i) {
    const x = arr[arg[left]]
    smallest = Math.min(smallest, x)
    biggest = Math.max(biggest, x)
    if (!(x < pivot)) {
      --right
      const t = arg[left]
      arg[left] = arg[right]
      arg[right] = t
    } else ++left
  }
  if (left === right) return { at: left, smallest, biggest }
  const load = (at: number): number[] => arg.slice(at, at + LANES)
  // Store one register's indices around the pivot: below to l_store.., the rest to just below r_store + 8.
  let lStore = left
  let rStore = right - LANES
  const store = (ids: number[]): void => {
    const lt: number[] = []
    const ge: number[] = []
    for (const i of ids) {
      const x = arr[i]
      smallest = Math.min(smallest, x)
      biggest = Math.max(biggest, x)
      ;(x >= pivot ? ge : lt).push(i)
    }
    for (let j = 0; j < lt.length; j++) arg[lStore + j] = lt[j]
    const base = rStore + LANES - ge.length
    for (let j = 0; j < ge.length; j++) arg[base + j] = ge[j]
    lStore += lt.length
    rStore -= ge.length
  }
  const firstLeft: number[][] = []
  const firstRight: number[][] = []
  for (let ii = 0; ii < UNROLL; ii++) {
    firstLeft.push(load(left + LANES * ii))
    firstRight.push(load(right - LANES * (UNROLL - ii)))
  }
  left += block
  right -= block
  while (right - left !== 0) {
    const regs: number[][] = []
    if (rStore + LANES - right < left - lStore) {
      right -= block
      for (let ii = 0; ii < UNROLL; ii++) regs.push(load(right + ii * LANES))
    } else {
      for (let ii = 0; ii < UNROLL; ii++) regs.push(load(left + ii * LANES))
      left += block
    }
    for (const r of regs) store(r)
  }
  for (const r of firstLeft) store(r)
  for (const r of firstRight) store(r)
  return { at: lStore, smallest, biggest }
}

function argsortRange(arr: ArrayLike<number>, arg: number[], left: number, right: number, maxIters: number): void {
  if (maxIters <= 0) {
    stdSort(arr, arg, left, right + 1)
    return
  }
  if (right + 1 - left <= 256) {
    argsortN(arr, arg, left, right + 1 - left)
    return
  }
  const pivot = pivotOf(arr, arg, left, right)
  const p = partition(arr, arg, left, right + 1, pivot)
  if (pivot !== p.smallest) argsortRange(arr, arg, left, p.at - 1, maxIters - 1)
  if (pivot !== p.biggest) argsortRange(arr, arg, p.at, right, maxIters - 1)
}

// ---- libstdc++ std::sort over indices, comparing their keys (`arr[a] < arr[b]`) ----

function stdSort(arr: ArrayLike<number>, arg: number[], first: number, last: number): void {
  if (first === last) return
  const less = (a: number, b: number): boolean => arr[a] < arr[b]
  const swap = (i: number, j: number): void => {
    const t = arg[i]
    arg[i] = arg[j]
    arg[j] = t
  }
  const lg = (n: number): number => 31 - Math.clz32(n)
  const unguardedLinearInsert = (last: number): void => {
    const val = arg[last]
    let next = last - 1
    while (less(val, arg[next])) {
      arg[last] = arg[next]
      last = next
      --next
    }
    arg[last] = val
  }
  const insertionSort = (first: number, last: number): void => {
    if (first === last) return
    for (let i = first + 1; i !== last; ++i) {
      if (less(arg[i], arg[first])) {
        const val = arg[i]
        for (let j = i; j > first; j--) arg[j] = arg[j - 1]
        arg[first] = val
      } else unguardedLinearInsert(i)
    }
  }
  const adjustHeap = (first: number, hole: number, len: number, value: number): void => {
    const top = hole
    let child = hole
    while (child < Math.floor((len - 1) / 2)) {
      child = 2 * (child + 1)
      if (less(arg[first + child], arg[first + (child - 1)])) child--
      arg[first + hole] = arg[first + child]
      hole = child
    }
    if ((len & 1) === 0 && child === Math.floor((len - 2) / 2)) {
      child = 2 * (child + 1)
      arg[first + hole] = arg[first + (child - 1)]
      hole = child - 1
    }
    let parent = Math.floor((hole - 1) / 2)
    while (hole > top && less(arg[first + parent], value)) {
      arg[first + hole] = arg[first + parent]
      hole = parent
      parent = Math.floor((hole - 1) / 2)
    }
    arg[first + hole] = value
  }
  const heapSort = (first: number, last: number): void => {
    const len = last - first
    if (len >= 2) for (let parent = Math.floor((len - 2) / 2); ; parent--) {
      adjustHeap(first, parent, len, arg[first + parent])
      if (parent === 0) break
    }
    while (last - first > 1) {
      --last
      const value = arg[last]
      arg[last] = arg[first]
      adjustHeap(first, 0, last - first, value)
    }
  }
  const moveMedianToFirst = (result: number, a: number, b: number, c: number): void => {
    if (less(arg[a], arg[b])) {
      if (less(arg[b], arg[c])) swap(result, b)
      else if (less(arg[a], arg[c])) swap(result, c)
      else swap(result, a)
    } else if (less(arg[a], arg[c])) swap(result, a)
    else if (less(arg[b], arg[c])) swap(result, c)
    else swap(result, b)
  }
  const unguardedPartition = (first: number, last: number, pivot: number): number => {
    for (;;) {
      while (less(arg[first], arg[pivot])) ++first
      --last
      while (less(arg[pivot], arg[last])) --last
      if (!(first < last)) return first
      swap(first, last)
      ++first
    }
  }
  const introsortLoop = (first: number, last: number, depth: number): void => {
    while (last - first > 16) {
      if (depth === 0) {
        heapSort(first, last)
        return
      }
      --depth
      const mid = first + Math.floor((last - first) / 2)
      moveMedianToFirst(first, first + 1, mid, last - 1)
      const cut = unguardedPartition(first + 1, last, first)
      introsortLoop(cut, last, depth)
      last = cut
    }
  }
  introsortLoop(first, last, lg(last - first) * 2)
  if (last - first > 16) {
    insertionSort(first, first + 16)
    for (let i = first + 16; i !== last; ++i) unguardedLinearInsert(i)
  } else insertionSort(first, last)
}

/**
 * np.argsort of a float64 array on an AVX-512 CPU (numpy 2.x): undefined where it has NaN (x86-simd-sort then uses
 * std::sort with a NaN-aware comparator; the caller falls back to numpy's generic order and says so).
 */
export function x86SimdArgsort(values: ArrayLike<number>): number[] | undefined {
  const n = values.length
  const arg = Array.from({ length: n }, (_, i) => i)
  if (n <= 1) return arg
  for (let i = 0; i < n; i++) if (values[i] !== values[i]) return undefined
  // An already sorted array returns the identity at once.
  let sorted = true
  for (let i = 1; i < n && sorted; i++) if (values[i] < values[i - 1]) sorted = false
  if (sorted) return arg
  argsortRange(values, arg, 0, n - 1, 2 * Math.floor(Math.log2(n)))
  return arg
}
