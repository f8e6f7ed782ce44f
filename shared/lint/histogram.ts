// Prompt-length histogram of one model with its context limit: bins of round widths that cover both the longest
// prompt and the limit, so the limit line always falls on the chart.
import type { LintHistogram } from './report'

const NICE = [1, 2, 2.5, 5]

/** A round bin width giving at most `maxBins` bins up to `top`. */
export function binWidth(top: number, maxBins = 30): number {
  const raw = Math.max(1, top / maxBins)
  const mag = 10 ** Math.floor(Math.log10(raw))
  for (const m of NICE) if (m * mag >= raw) return Math.max(1, Math.round(m * mag))
  return 10 * mag
}

/** `counts[i]` is row i's token count, or -1 when the row gave no input for the model (left out). */
export function histogram(model: string, counts: ArrayLike<number>, live: (i: number) => boolean, contextLength: number, exact: boolean): LintHistogram {
  const values: number[] = []
  for (let i = 0; i < counts.length; i++) if (counts[i] >= 0 && live(i)) values.push(counts[i])
  values.sort((a, b) => a - b)
  const max = values.length ? values[values.length - 1] : 0
  const width = binWidth(Math.max(max + 1, contextLength + 1))
  const nBins = Math.ceil(Math.max(max + 1, contextLength + 1) / width)
  const bins = Array.from({ length: nBins }, (_, k) => ({ from: k * width, to: (k + 1) * width, count: 0 }))
  let over = 0
  for (const v of values) {
    bins[Math.min(nBins - 1, Math.floor(v / width))].count++
    if (v > contextLength) over++
  }
  const q = (p: number) => (values.length ? values[Math.min(values.length - 1, Math.floor(p * values.length))] : 0)
  return { model, contextLength, exact, bins, rows: values.length, over, max, p50: q(0.5), p95: q(0.95) }
}
