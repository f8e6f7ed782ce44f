// zlib's deflate (madler/zlib deflate.c + trees.c, 1.2.x), levels 1–9 with the zlib wrapper, ported to TypeScript
// so the bytes are vanilla zlib's: the bytes Pillow writes into a PNG's IDAT when it runs on a system zlib (its
// wheels call libz.so.1's deflate), and the bytes Python's zlib.compress gives. Node's own zlib is Chromium's fork,
// whose matcher differs: its output is a valid stream of the same data but not always the same bytes.
// One-shot: the whole input at once (zlib's output does not depend on how the input is fed with Z_NO_FLUSH, then
// Z_FINISH). Strategies: default, Z_FILTERED (1); levels 1–3 use deflate_fast, 4–9 deflate_slow.

const MIN_MATCH = 3
const MAX_MATCH = 258
const MIN_LOOKAHEAD = MAX_MATCH + MIN_MATCH + 1
const TOO_FAR = 4096
const L_CODES = 286
const D_CODES = 30
const BL_CODES = 19
const HEAP_SIZE = 2 * L_CODES + 1
const MAX_BITS = 15
const MAX_BL_BITS = 7
const LITERALS = 256
const LENGTH_CODES = 29
const END_BLOCK = 256
const REP_3_6 = 16
const REPZ_3_10 = 17
const REPZ_11_138 = 18
const STORED_BLOCK = 0
const STATIC_TREES = 1
const DYN_TREES = 2
const Z_FILTERED = 1

// good_length, max_lazy, nice_length, max_chain, fast (deflate_fast) or slow (deflate_slow); level 0 is not ported.
const CONFIG: Array<[number, number, number, number, boolean]> = [
  [0, 0, 0, 0, true],
  [4, 4, 8, 4, true],
  [4, 5, 16, 8, true],
  [4, 6, 32, 32, true],
  [4, 4, 16, 16, false],
  [8, 16, 32, 32, false],
  [8, 16, 128, 128, false],
  [8, 32, 128, 256, false],
  [32, 128, 258, 1024, false],
  [32, 258, 258, 4096, false]
]

const EXTRA_LBITS = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
const EXTRA_DBITS = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
const EXTRA_BLBITS = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7]
const BL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

function biReverse(code: number, len: number): number {
  let res = 0
  do {
    res |= code & 1
    code >>>= 1
    res <<= 1
  } while (--len > 0)
  return res >>> 1
}

/** Huffman tree: Freq (doubles as Code) and Dad (doubles as Len) as in ct_data. */
interface Tree {
  freq: Uint16Array
  code: Uint16Array
  len: Uint16Array
  dad: Uint16Array
}
const tree = (n: number): Tree => ({
  freq: new Uint16Array(n),
  code: new Uint16Array(n),
  len: new Uint16Array(n),
  dad: new Uint16Array(n)
})

// tr_static_init
const LENGTH_CODE = new Uint8Array(MAX_MATCH - MIN_MATCH + 1)
const DIST_CODE = new Uint8Array(512)
const BASE_LENGTH = new Int32Array(LENGTH_CODES)
const BASE_DIST = new Int32Array(D_CODES)
const STATIC_LTREE = tree(L_CODES + 2)
const STATIC_DTREE = tree(D_CODES)
{
  let length = 0
  let code = 0
  for (code = 0; code < LENGTH_CODES - 1; code++) {
    BASE_LENGTH[code] = length
    for (let n = 0; n < 1 << EXTRA_LBITS[code]; n++) LENGTH_CODE[length++] = code
  }
  LENGTH_CODE[length - 1] = code
  let dist = 0
  for (code = 0; code < 16; code++) {
    BASE_DIST[code] = dist
    for (let n = 0; n < 1 << EXTRA_DBITS[code]; n++) DIST_CODE[dist++] = code
  }
  dist >>= 7
  for (; code < D_CODES; code++) {
    BASE_DIST[code] = dist << 7
    for (let n = 0; n < 1 << (EXTRA_DBITS[code] - 7); n++) DIST_CODE[256 + dist++] = code
  }
  const blCount = new Uint16Array(MAX_BITS + 1)
  let n = 0
  while (n <= 143) {
    STATIC_LTREE.len[n++] = 8
    blCount[8]++
  }
  while (n <= 255) {
    STATIC_LTREE.len[n++] = 9
    blCount[9]++
  }
  while (n <= 279) {
    STATIC_LTREE.len[n++] = 7
    blCount[7]++
  }
  while (n <= 287) {
    STATIC_LTREE.len[n++] = 8
    blCount[8]++
  }
  genCodes(STATIC_LTREE, L_CODES + 1, blCount)
  for (n = 0; n < D_CODES; n++) {
    STATIC_DTREE.len[n] = 5
    STATIC_DTREE.code[n] = biReverse(n, 5)
  }
}

function genCodes(t: Tree, maxCode: number, blCount: Uint16Array): void {
  const next = new Uint16Array(MAX_BITS + 1)
  let code = 0
  for (let bits = 1; bits <= MAX_BITS; bits++) {
    code = (code + blCount[bits - 1]) << 1
    next[bits] = code
  }
  for (let n = 0; n <= maxCode; n++) {
    const len = t.len[n]
    if (len === 0) continue
    t.code[n] = biReverse(next[len]++, len)
  }
}

const dCode = (dist: number): number => (dist < 256 ? DIST_CODE[dist] : DIST_CODE[256 + (dist >>> 7)])

interface StaticDesc {
  stree: Tree | null
  extra: number[]
  extraBase: number
  elems: number
  maxLength: number
}
const STATIC_L_DESC: StaticDesc = {
  stree: STATIC_LTREE,
  extra: EXTRA_LBITS,
  extraBase: LITERALS + 1,
  elems: L_CODES,
  maxLength: MAX_BITS
}
const STATIC_D_DESC: StaticDesc = {
  stree: STATIC_DTREE,
  extra: EXTRA_DBITS,
  extraBase: 0,
  elems: D_CODES,
  maxLength: MAX_BITS
}
const STATIC_BL_DESC: StaticDesc = {
  stree: null,
  extra: EXTRA_BLBITS,
  extraBase: 0,
  elems: BL_CODES,
  maxLength: MAX_BL_BITS
}

class Output {
  buf = new Uint8Array(1 << 16)
  n = 0
  biBuf = 0
  biValid = 0
  byte(b: number): void {
    if (this.n === this.buf.length) {
      const nb = new Uint8Array(this.buf.length * 2)
      nb.set(this.buf)
      this.buf = nb
    }
    this.buf[this.n++] = b & 255
  }
  short(w: number): void {
    this.byte(w & 0xff)
    this.byte((w >>> 8) & 0xff)
  }
  bits(value: number, length: number): void {
    if (this.biValid > 16 - length) {
      this.biBuf = (this.biBuf | (value << this.biValid)) & 0xffff
      this.short(this.biBuf)
      this.biBuf = (value >>> (16 - this.biValid)) & 0xffff
      this.biValid += length - 16
    } else {
      this.biBuf = (this.biBuf | (value << this.biValid)) & 0xffff
      this.biValid += length
    }
  }
  windup(): void {
    if (this.biValid > 8) this.short(this.biBuf)
    else if (this.biValid > 0) this.byte(this.biBuf)
    this.biBuf = 0
    this.biValid = 0
  }
}

class State {
  readonly wSize: number
  readonly wMask: number
  readonly windowSize: number
  readonly window: Uint8Array
  readonly prev: Uint16Array
  readonly head: Uint16Array
  readonly hashMask: number
  readonly hashShift: number
  readonly litBufsize: number
  readonly dBuf: Uint16Array
  readonly lBuf: Uint8Array
  lastLit = 0
  insH = 0
  strstart = 0
  blockStart = 0
  lookahead = 0
  insert = 0
  matchLength = MIN_MATCH - 1
  prevLength = MIN_MATCH - 1
  matchAvailable = false
  matchStart = 0
  prevMatch = 0
  highWater = 0
  readonly maxLazy: number
  readonly goodMatch: number
  readonly niceMatch: number
  readonly maxChain: number
  dynL = tree(HEAP_SIZE)
  dynD = tree(2 * D_CODES + 1)
  blTree = tree(2 * BL_CODES + 1)
  lMax = 0
  dMax = 0
  blMax = 0
  heap = new Int32Array(2 * L_CODES + 1)
  heapLen = 0
  heapMax = 0
  depth = new Uint8Array(2 * L_CODES + 1)
  blCount = new Uint16Array(MAX_BITS + 1)
  optLen = 0
  staticLen = 0
  out = new Output()
  input: Uint8Array
  next = 0

  constructor(
    input: Uint8Array,
    readonly level: number,
    windowBits: number,
    memLevel: number,
    readonly strategy: number
  ) {
    this.input = input
    this.wSize = 1 << windowBits
    this.wMask = this.wSize - 1
    this.windowSize = 2 * this.wSize
    this.window = new Uint8Array(this.windowSize)
    this.prev = new Uint16Array(this.wSize)
    const hashBits = memLevel + 7
    this.head = new Uint16Array(1 << hashBits)
    this.hashMask = (1 << hashBits) - 1
    this.hashShift = Math.floor((hashBits + MIN_MATCH - 1) / MIN_MATCH)
    this.litBufsize = 1 << (memLevel + 6)
    this.dBuf = new Uint16Array(this.litBufsize)
    this.lBuf = new Uint8Array(this.litBufsize)
    const c = CONFIG[level]
    this.goodMatch = c[0]
    this.maxLazy = c[1]
    this.niceMatch = c[2]
    this.maxChain = c[3]
    this.initBlock()
  }

  get maxDist(): number {
    return this.wSize - MIN_LOOKAHEAD
  }

  updateHash(h: number, c: number): number {
    return ((h << this.hashShift) ^ c) & this.hashMask
  }

  /** INSERT_STRING: returns the previous head of the chain. */
  insertString(str: number): number {
    this.insH = this.updateHash(this.insH, this.window[str + MIN_MATCH - 1])
    const head = this.head[this.insH]
    this.prev[str & this.wMask] = head
    this.head[this.insH] = str
    return head
  }

  fillWindow(): void {
    const wsize = this.wSize
    do {
      let more = this.windowSize - this.lookahead - this.strstart
      if (this.strstart >= wsize + this.maxDist) {
        this.window.copyWithin(0, wsize, wsize + wsize)
        this.matchStart -= wsize
        this.strstart -= wsize
        this.blockStart -= wsize
        for (let n = 0; n < this.head.length; n++) {
          const m = this.head[n]
          this.head[n] = m >= wsize ? m - wsize : 0
        }
        for (let n = 0; n < wsize; n++) {
          const m = this.prev[n]
          this.prev[n] = m >= wsize ? m - wsize : 0
        }
        more += wsize
      }
      const avail = this.input.length - this.next
      if (avail === 0) break
      const n = Math.min(avail, more)
      this.window.set(this.input.subarray(this.next, this.next + n), this.strstart + this.lookahead)
      this.next += n
      this.lookahead += n
      if (this.lookahead + this.insert >= MIN_MATCH) {
        let str = this.strstart - this.insert
        this.insH = this.window[str]
        this.insH = this.updateHash(this.insH, this.window[str + 1])
        while (this.insert) {
          this.insH = this.updateHash(this.insH, this.window[str + MIN_MATCH - 1])
          this.prev[str & this.wMask] = this.head[this.insH]
          this.head[this.insH] = str
          str++
          this.insert--
          if (this.lookahead + this.insert < MIN_MATCH) break
        }
      }
    } while (this.lookahead < MIN_LOOKAHEAD && this.next < this.input.length)
    // WIN_INIT (= MAX_MATCH) bytes past the data are zeroed the first time they are reached.
    if (this.highWater < this.windowSize) {
      const curr = this.strstart + this.lookahead
      if (this.highWater < curr) {
        const init = Math.min(this.windowSize - curr, MAX_MATCH)
        this.window.fill(0, curr, curr + init)
        this.highWater = curr + init
      } else if (this.highWater < curr + MAX_MATCH) {
        const init = Math.min(curr + MAX_MATCH - this.highWater, this.windowSize - this.highWater)
        this.window.fill(0, this.highWater, this.highWater + init)
        this.highWater += init
      }
    }
  }

  longestMatch(curMatch: number): number {
    let chainLength = this.maxChain
    const w = this.window
    let scan = this.strstart
    let bestLen = this.prevLength
    let niceMatch = this.niceMatch
    const limit = this.strstart > this.maxDist ? this.strstart - this.maxDist : 0
    const strend = this.strstart + MAX_MATCH
    let scanEnd1 = w[scan + bestLen - 1]
    let scanEnd = w[scan + bestLen]
    if (this.prevLength >= this.goodMatch) chainLength >>= 2
    if (niceMatch > this.lookahead) niceMatch = this.lookahead
    do {
      let match = curMatch
      if (
        w[match + bestLen] !== scanEnd ||
        w[match + bestLen - 1] !== scanEnd1 ||
        w[match] !== w[scan] ||
        w[++match] !== w[scan + 1]
      )
        continue
      scan += 2
      match++
      // while (*++scan == *++match && … && scan < strend), eight comparisons between each bound check
      for (;;) {
        if (
          w[++scan] !== w[++match] ||
          w[++scan] !== w[++match] ||
          w[++scan] !== w[++match] ||
          w[++scan] !== w[++match] ||
          w[++scan] !== w[++match] ||
          w[++scan] !== w[++match] ||
          w[++scan] !== w[++match] ||
          w[++scan] !== w[++match]
        )
          break
        if (!(scan < strend)) break
      }
      const len = MAX_MATCH - (strend - scan)
      scan = strend - MAX_MATCH
      if (len > bestLen) {
        this.matchStart = curMatch
        bestLen = len
        if (len >= niceMatch) break
        scanEnd1 = w[scan + bestLen - 1]
        scanEnd = w[scan + bestLen]
      }
    } while ((curMatch = this.prev[curMatch & this.wMask]) > limit && --chainLength !== 0)
    return bestLen <= this.lookahead ? bestLen : this.lookahead
  }

  // ---- trees.c
  initBlock(): void {
    this.dynL.freq.fill(0, 0, L_CODES)
    this.dynD.freq.fill(0, 0, D_CODES)
    this.blTree.freq.fill(0, 0, BL_CODES)
    this.dynL.freq[END_BLOCK] = 1
    this.optLen = 0
    this.staticLen = 0
    this.lastLit = 0
  }

  /** _tr_tally: true when the block must be flushed. */
  tally(dist: number, lc: number): boolean {
    this.dBuf[this.lastLit] = dist
    this.lBuf[this.lastLit++] = lc
    if (dist === 0) this.dynL.freq[lc]++
    else {
      dist--
      this.dynL.freq[LENGTH_CODE[lc] + LITERALS + 1]++
      this.dynD.freq[dCode(dist)]++
    }
    return this.lastLit === this.litBufsize - 1
  }

  smaller(t: Tree, n: number, m: number): boolean {
    return t.freq[n] < t.freq[m] || (t.freq[n] === t.freq[m] && this.depth[n] <= this.depth[m])
  }

  pqdownheap(t: Tree, k: number): void {
    const v = this.heap[k]
    let j = k << 1
    while (j <= this.heapLen) {
      if (j < this.heapLen && this.smaller(t, this.heap[j + 1], this.heap[j])) j++
      if (this.smaller(t, v, this.heap[j])) break
      this.heap[k] = this.heap[j]
      k = j
      j <<= 1
    }
    this.heap[k] = v
  }

  genBitlen(t: Tree, maxCode: number, d: StaticDesc): void {
    const { stree, extra, extraBase: base, maxLength } = d
    let overflow = 0
    this.blCount.fill(0)
    t.len[this.heap[this.heapMax]] = 0
    let h: number
    for (h = this.heapMax + 1; h < HEAP_SIZE; h++) {
      const n = this.heap[h]
      let bits = t.len[t.dad[n]] + 1
      if (bits > maxLength) {
        bits = maxLength
        overflow++
      }
      t.len[n] = bits
      if (n > maxCode) continue
      this.blCount[bits]++
      let xbits = 0
      if (n >= base) xbits = extra[n - base]
      const f = t.freq[n]
      this.optLen += f * (bits + xbits)
      if (stree) this.staticLen += f * (stree.len[n] + xbits)
    }
    if (overflow === 0) return
    do {
      let bits = maxLength - 1
      while (this.blCount[bits] === 0) bits--
      this.blCount[bits]--
      this.blCount[bits + 1] += 2
      this.blCount[maxLength]--
      overflow -= 2
    } while (overflow > 0)
    for (let bits = maxLength; bits !== 0; bits--) {
      let n = this.blCount[bits]
      while (n !== 0) {
        const m = this.heap[--h]
        if (m > maxCode) continue
        if (t.len[m] !== bits) {
          this.optLen += (bits - t.len[m]) * t.freq[m]
          t.len[m] = bits
        }
        n--
      }
    }
  }

  /** build_tree: returns max_code. */
  buildTree(t: Tree, d: StaticDesc): number {
    const { stree, elems } = d
    let maxCode = -1
    this.heapLen = 0
    this.heapMax = HEAP_SIZE
    for (let n = 0; n < elems; n++) {
      if (t.freq[n] !== 0) {
        this.heap[++this.heapLen] = maxCode = n
        this.depth[n] = 0
      } else t.len[n] = 0
    }
    while (this.heapLen < 2) {
      const node = (this.heap[++this.heapLen] = maxCode < 2 ? ++maxCode : 0)
      t.freq[node] = 1
      this.depth[node] = 0
      this.optLen--
      if (stree) this.staticLen -= stree.len[node]
    }
    for (let n = this.heapLen >> 1; n >= 1; n--) this.pqdownheap(t, n)
    let node = elems
    do {
      const n = this.heap[1]
      this.heap[1] = this.heap[this.heapLen--]
      this.pqdownheap(t, 1)
      const m = this.heap[1]
      this.heap[--this.heapMax] = n
      this.heap[--this.heapMax] = m
      t.freq[node] = t.freq[n] + t.freq[m]
      this.depth[node] = (this.depth[n] >= this.depth[m] ? this.depth[n] : this.depth[m]) + 1
      t.dad[n] = t.dad[m] = node
      this.heap[1] = node++
      this.pqdownheap(t, 1)
    } while (this.heapLen >= 2)
    this.heap[--this.heapMax] = this.heap[1]
    this.genBitlen(t, maxCode, d)
    genCodes(t, maxCode, this.blCount)
    return maxCode
  }

  scanTree(t: Tree, maxCode: number): void {
    let prevlen = -1
    let nextlen = t.len[0]
    let count = 0
    let maxCount = 7
    let minCount = 4
    if (nextlen === 0) {
      maxCount = 138
      minCount = 3
    }
    t.len[maxCode + 1] = 0xffff
    for (let n = 0; n <= maxCode; n++) {
      const curlen = nextlen
      nextlen = t.len[n + 1]
      if (++count < maxCount && curlen === nextlen) continue
      else if (count < minCount) this.blTree.freq[curlen] += count
      else if (curlen !== 0) {
        if (curlen !== prevlen) this.blTree.freq[curlen]++
        this.blTree.freq[REP_3_6]++
      } else if (count <= 10) this.blTree.freq[REPZ_3_10]++
      else this.blTree.freq[REPZ_11_138]++
      count = 0
      prevlen = curlen
      if (nextlen === 0) {
        maxCount = 138
        minCount = 3
      } else if (curlen === nextlen) {
        maxCount = 6
        minCount = 3
      } else {
        maxCount = 7
        minCount = 4
      }
    }
  }

  sendCode(c: number, t: Tree): void {
    this.out.bits(t.code[c], t.len[c])
  }

  sendTree(t: Tree, maxCode: number): void {
    let prevlen = -1
    let nextlen = t.len[0]
    let count = 0
    let maxCount = 7
    let minCount = 4
    if (nextlen === 0) {
      maxCount = 138
      minCount = 3
    }
    for (let n = 0; n <= maxCode; n++) {
      const curlen = nextlen
      nextlen = t.len[n + 1]
      if (++count < maxCount && curlen === nextlen) continue
      else if (count < minCount) {
        do this.sendCode(curlen, this.blTree)
        while (--count !== 0)
      } else if (curlen !== 0) {
        if (curlen !== prevlen) {
          this.sendCode(curlen, this.blTree)
          count--
        }
        this.sendCode(REP_3_6, this.blTree)
        this.out.bits(count - 3, 2)
      } else if (count <= 10) {
        this.sendCode(REPZ_3_10, this.blTree)
        this.out.bits(count - 3, 3)
      } else {
        this.sendCode(REPZ_11_138, this.blTree)
        this.out.bits(count - 11, 7)
      }
      count = 0
      prevlen = curlen
      if (nextlen === 0) {
        maxCount = 138
        minCount = 3
      } else if (curlen === nextlen) {
        maxCount = 6
        minCount = 3
      } else {
        maxCount = 7
        minCount = 4
      }
    }
  }

  buildBlTree(): number {
    this.scanTree(this.dynL, this.lMax)
    this.scanTree(this.dynD, this.dMax)
    this.blMax = this.buildTree(this.blTree, STATIC_BL_DESC)
    let maxBlindex: number
    for (maxBlindex = BL_CODES - 1; maxBlindex >= 3; maxBlindex--)
      if (this.blTree.len[BL_ORDER[maxBlindex]] !== 0) break
    this.optLen += 3 * (maxBlindex + 1) + 5 + 5 + 4
    return maxBlindex
  }

  sendAllTrees(lcodes: number, dcodes: number, blcodes: number): void {
    this.out.bits(lcodes - 257, 5)
    this.out.bits(dcodes - 1, 5)
    this.out.bits(blcodes - 4, 4)
    for (let rank = 0; rank < blcodes; rank++) this.out.bits(this.blTree.len[BL_ORDER[rank]], 3)
    this.sendTree(this.dynL, lcodes - 1)
    this.sendTree(this.dynD, dcodes - 1)
  }

  compressBlock(lt: Tree, dt: Tree): void {
    let lx = 0
    if (this.lastLit !== 0)
      do {
        let dist = this.dBuf[lx]
        let lc = this.lBuf[lx++]
        if (dist === 0) this.sendCode(lc, lt)
        else {
          let code = LENGTH_CODE[lc]
          this.sendCode(code + LITERALS + 1, lt)
          let extra = EXTRA_LBITS[code]
          if (extra !== 0) {
            lc -= BASE_LENGTH[code]
            this.out.bits(lc, extra)
          }
          dist--
          code = dCode(dist)
          this.sendCode(code, dt)
          extra = EXTRA_DBITS[code]
          if (extra !== 0) {
            dist -= BASE_DIST[code]
            this.out.bits(dist, extra)
          }
        }
      } while (lx < this.lastLit)
    this.sendCode(END_BLOCK, lt)
  }

  /** _tr_flush_block over window[blockStart, strstart). */
  flushBlock(last: boolean): void {
    const storedLen = this.strstart - this.blockStart
    const hasBuf = this.blockStart >= 0
    this.lMax = this.buildTree(this.dynL, STATIC_L_DESC)
    this.dMax = this.buildTree(this.dynD, STATIC_D_DESC)
    const maxBlindex = this.buildBlTree()
    let optLenb = Math.floor((this.optLen + 3 + 7) / 8)
    const staticLenb = Math.floor((this.staticLen + 3 + 7) / 8)
    if (staticLenb <= optLenb) optLenb = staticLenb
    const lastBit = last ? 1 : 0
    if (storedLen + 4 <= optLenb && hasBuf) {
      this.out.bits((STORED_BLOCK << 1) + lastBit, 3)
      this.out.windup()
      this.out.short(storedLen)
      this.out.short(~storedLen & 0xffff)
      for (let i = 0; i < storedLen; i++) this.out.byte(this.window[this.blockStart + i])
    } else if (staticLenb === optLenb) {
      this.out.bits((STATIC_TREES << 1) + lastBit, 3)
      this.compressBlock(STATIC_LTREE, STATIC_DTREE)
    } else {
      this.out.bits((DYN_TREES << 1) + lastBit, 3)
      this.sendAllTrees(this.lMax + 1, this.dMax + 1, maxBlindex + 1)
      this.compressBlock(this.dynL, this.dynD)
    }
    this.initBlock()
    if (last) this.out.windup()
    this.blockStart = this.strstart
  }

  deflateSlow(): void {
    for (;;) {
      if (this.lookahead < MIN_LOOKAHEAD) {
        this.fillWindow()
        if (this.lookahead === 0) break
      }
      let hashHead = 0
      if (this.lookahead >= MIN_MATCH) hashHead = this.insertString(this.strstart)
      this.prevLength = this.matchLength
      this.prevMatch = this.matchStart
      this.matchLength = MIN_MATCH - 1
      if (hashHead !== 0 && this.prevLength < this.maxLazy && this.strstart - hashHead <= this.maxDist) {
        this.matchLength = this.longestMatch(hashHead)
        if (
          this.matchLength <= 5 &&
          (this.strategy === Z_FILTERED ||
            (this.matchLength === MIN_MATCH && this.strstart - this.matchStart > TOO_FAR))
        )
          this.matchLength = MIN_MATCH - 1
      }
      if (this.prevLength >= MIN_MATCH && this.matchLength <= this.prevLength) {
        const maxInsert = this.strstart + this.lookahead - MIN_MATCH
        const bflush = this.tally(this.strstart - 1 - this.prevMatch, this.prevLength - MIN_MATCH)
        this.lookahead -= this.prevLength - 1
        this.prevLength -= 2
        do {
          if (++this.strstart <= maxInsert) this.insertString(this.strstart)
        } while (--this.prevLength !== 0)
        this.matchAvailable = false
        this.matchLength = MIN_MATCH - 1
        this.strstart++
        if (bflush) this.flushBlock(false)
      } else if (this.matchAvailable) {
        const bflush = this.tally(0, this.window[this.strstart - 1])
        if (bflush) this.flushBlock(false)
        this.strstart++
        this.lookahead--
      } else {
        this.matchAvailable = true
        this.strstart++
        this.lookahead--
      }
    }
    if (this.matchAvailable) {
      this.tally(0, this.window[this.strstart - 1])
      this.matchAvailable = false
    }
    this.insert = this.strstart < MIN_MATCH - 1 ? this.strstart : MIN_MATCH - 1
    this.flushBlock(true)
  }

  deflateFast(): void {
    for (;;) {
      if (this.lookahead < MIN_LOOKAHEAD) {
        this.fillWindow()
        if (this.lookahead === 0) break
      }
      let hashHead = 0
      if (this.lookahead >= MIN_MATCH) hashHead = this.insertString(this.strstart)
      if (hashHead !== 0 && this.strstart - hashHead <= this.maxDist) this.matchLength = this.longestMatch(hashHead)
      let bflush: boolean
      if (this.matchLength >= MIN_MATCH) {
        bflush = this.tally(this.strstart - this.matchStart, this.matchLength - MIN_MATCH)
        this.lookahead -= this.matchLength
        // max_insert_length is max_lazy for deflate_fast
        if (this.matchLength <= this.maxLazy && this.lookahead >= MIN_MATCH) {
          this.matchLength--
          do {
            this.strstart++
            this.insertString(this.strstart)
          } while (--this.matchLength !== 0)
          this.strstart++
        } else {
          this.strstart += this.matchLength
          this.matchLength = 0
          this.insH = this.window[this.strstart]
          this.insH = this.updateHash(this.insH, this.window[this.strstart + 1])
        }
      } else {
        bflush = this.tally(0, this.window[this.strstart])
        this.lookahead--
        this.strstart++
      }
      if (bflush) this.flushBlock(false)
    }
    this.insert = this.strstart < MIN_MATCH - 1 ? this.strstart : MIN_MATCH - 1
    this.flushBlock(true)
  }
}

function adler32(data: Uint8Array): number {
  let a = 1
  let b = 0
  for (let i = 0; i < data.length; ) {
    const end = Math.min(data.length, i + 5552)
    for (; i < end; i++) {
      a += data[i]
      b += a
    }
    a %= 65521
    b %= 65521
  }
  return ((b << 16) | a) >>> 0
}

export interface ZlibOptions {
  level?: number
  windowBits?: number
  memLevel?: number
  /** 0 default, 1 Z_FILTERED. */
  strategy?: number
}

/** compressobj(level, DEFLATED, windowBits, memLevel, strategy).compress(data) + flush(): a zlib stream. */
export function zlibDeflate(data: Uint8Array, o: ZlibOptions = {}): Uint8Array {
  const level = o.level === undefined || o.level === -1 ? 6 : o.level
  const windowBits = o.windowBits ?? 15
  const memLevel = o.memLevel ?? 8
  const strategy = o.strategy ?? 0
  if (!(level >= 1 && level <= 9)) throw new Error(`zlibDeflate: level ${level} is not ported (1–9)`)
  if (!(windowBits >= 9 && windowBits <= 15)) throw new Error(`zlibDeflate: windowBits ${windowBits} (9–15)`)
  if (!(memLevel >= 1 && memLevel <= 9)) throw new Error(`zlibDeflate: memLevel ${memLevel} (1–9)`)
  if (strategy !== 0 && strategy !== Z_FILTERED) throw new Error(`zlibDeflate: strategy ${strategy} is not ported`)
  const s = new State(data, level, windowBits, memLevel, strategy)
  // zlib header: CMF/FLG with the level class and a check so that the 16-bit value is a multiple of 31.
  let header = (8 + ((windowBits - 8) << 4)) << 8
  const levelFlags = level < 2 ? 0 : level < 6 ? 1 : level === 6 ? 2 : 3
  header |= levelFlags << 6
  header += 31 - (header % 31)
  s.out.byte(header >>> 8)
  s.out.byte(header & 0xff)
  if (CONFIG[level][4]) s.deflateFast()
  else s.deflateSlow()
  const ad = adler32(data)
  s.out.byte(ad >>> 24)
  s.out.byte(ad >>> 16)
  s.out.byte(ad >>> 8)
  s.out.byte(ad)
  return s.out.buf.slice(0, s.out.n)
}
