// What one picture costs a vision-language model in tokens, by the rule its transformers processor applies to the
// real image size. Pure arithmetic: main reads the size (sharp metadata) and calls these. A rule PromptLoom does
// not know, or a picture whose size is unknown, gives null: the column says "unknown", never a guess.
import type { MediaRule } from './profile'

export interface MediaTokenCost {
  /** Tokens the model's input holds for this part (null: unknown). */
  tokens: number | null
  /** How it was worked out, for the tooltip ("smart_resize 1600×1200 → 1568×1176: 56×42 patches / 2²"). */
  how: string
  /** Tokens that reach the model by cross-attention instead of the text (Llama 3.2 Vision tiles). */
  crossAttention?: number
}

/** Python's round(): halves go to the even neighbour. */
function pyRound(x: number): number {
  const f = Math.floor(x)
  const d = x - f
  if (d > 0.5) return f + 1
  if (d < 0.5) return f
  return f % 2 === 0 ? f : f + 1
}

/**
 * transformers models/qwen2_vl/image_processing_qwen2_vl.py `smart_resize(height, width, factor=28, min_pixels,
 * max_pixels)`: both sides rounded to a multiple of factor (= patch_size × merge_size), then scaled down (floor) or
 * up (ceil) by √(pixels ratio) when outside [min_pixels, max_pixels]. Raises for sides under 10 or a ratio over 200.
 */
export function smartResize(height: number, width: number, factor: number, minPixels: number, maxPixels: number): [number, number] {
  if (height < 10 || width < 10) throw new Error(`height:${height} or width:${width} must be larger than factor:${factor}`)
  if (Math.max(height, width) / Math.min(height, width) > 200) throw new Error(`absolute aspect ratio must be smaller than 100, got ${height} / ${width}`)
  let h = pyRound(height / factor) * factor
  let w = pyRound(width / factor) * factor
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels)
    h = Math.floor(height / beta / factor) * factor
    w = Math.floor(width / beta / factor) * factor
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width))
    h = Math.ceil((height * beta) / factor) * factor
    w = Math.ceil((width * beta) / factor) * factor
  }
  return [h, w]
}

/**
 * transformers image_processing_utils.select_best_resolution: the grid pinpoint that keeps the most of the picture
 * (effective resolution after fitting), ties broken by the least wasted area. Returns [height, width].
 */
export function selectBestResolution(origH: number, origW: number, pinpoints: ReadonlyArray<readonly [number, number]>): [number, number] {
  let best: [number, number] = [pinpoints[0][0], pinpoints[0][1]]
  let maxEffective = 0
  let minWasted = Infinity
  for (const [height, width] of pinpoints) {
    const scale = Math.min(width / origW, height / origH)
    const dw = Math.trunc(origW * scale)
    const dh = Math.trunc(origH * scale)
    const effective = Math.min(dw * dh, origW * origH)
    const wasted = width * height - effective
    if (effective > maxEffective || (effective === maxEffective && wasted < minWasted)) {
      maxEffective = effective
      minWasted = wasted
      best = [height, width]
    }
  }
  return best
}

/** `int(round(x, 7))`: round to 7 decimals, then truncate. */
const int7 = (x: number): number => Math.trunc(Math.round(x * 1e7) / 1e7)

/**
 * transformers models/llava_next/processing_llava_next.py `_get_number_of_features(orig_height, orig_width, height,
 * width)` with `_get_unpadded_features`, minus one for vision_feature_select_strategy "default" (LlavaNextProcessor
 * __call__): base features (patches of the crop) + the unpadded anyres grid + one newline token per grid row.
 */
export function llavaNextTokens(origH: number, origW: number, size: number, patch: number, pinpoints: ReadonlyArray<readonly [number, number]>, strategy: 'default' | 'full'): number {
  const [bh, bw] = selectBestResolution(origH, origW, pinpoints)
  const scaleH = Math.floor(bh / size)
  const scaleW = Math.floor(bw / size)
  const ph = Math.floor(size / patch)
  const pw = Math.floor(size / patch)
  let curH = ph * scaleH
  let curW = pw * scaleW
  const originalAspect = origW / origH
  const currentAspect = curW / curH
  if (originalAspect > currentAspect) {
    const newH = int7(origH * (curW / origW))
    const padding = Math.floor((curH - newH) / 2)
    curH -= padding * 2
  } else {
    const newW = int7(origW * (curH / origH))
    const padding = Math.floor((curW - newW) / 2)
    curW -= padding * 2
  }
  // num_additional_image_tokens = 1 (the CLS token) in the llava-hf processor configs.
  const base = ph * pw + 1
  const n = curH * curW + curH + base
  return strategy === 'default' ? n - 1 : n
}

/**
 * transformers models/mllama/image_processing_mllama.py `get_optimal_tiled_canvas(image_height, image_width,
 * max_image_tiles, tile_size)`: the canvas (in tiles) that needs the least upscaling, else the least downscaling,
 * ties to the smallest area. Returns the number of tiles.
 */
export function mllamaTiles(height: number, width: number, maxTiles: number, tile: number): number {
  const arrangements: [number, number][] = []
  for (let a = 1; a <= maxTiles; a++) for (let b = 1; b <= maxTiles; b++) if (a * b <= maxTiles) arrangements.push([a, b])
  // possible_canvas_sizes.T: the first column is read as heights, the second as widths.
  const scales = arrangements.map(([a, b]) => {
    const sh = (a * tile) / height
    const sw = (b * tile) / width
    return sw > sh ? sh : sw
  })
  const up = scales.filter((s) => s >= 1)
  const selected = up.length ? Math.min(...up) : Math.max(...scales.filter((s) => s < 1))
  let best: [number, number] | null = null
  arrangements.forEach((ar, i) => {
    if (scales[i] !== selected) return
    if (!best || ar[0] * ar[1] < best[0] * best[1]) best = ar
  })
  const [a, b] = best ?? [1, 1]
  return a * b
}

/** The cost of one picture of size width×height under a profile's rule (vision_kwargs may override the pixel bounds). */
export function imageTokenCost(rule: MediaRule | undefined, size: { width: number; height: number } | null, visionKwargs: Record<string, unknown> = {}): MediaTokenCost {
  if (!rule) return { tokens: null, how: 'no token rule is known for this model: the count is the text only' }
  if (rule.rule === 'fixed') return { tokens: rule.tokens, how: `${rule.tokens} tokens per picture (${rule.source})` }
  if (!size || !(size.width > 0) || !(size.height > 0)) return { tokens: null, how: 'the picture\'s size is unknown (missing or unreadable file)' }
  const { width, height } = size
  switch (rule.rule) {
    case 'qwen2-vl': {
      const num = (v: unknown, d: number) => (typeof v === 'number' && v > 0 ? v : d)
      const minP = num(visionKwargs.min_pixels, rule.min_pixels)
      const maxP = num(visionKwargs.max_pixels, rule.max_pixels)
      const factor = rule.patch_size * rule.merge_size
      let h: number, w: number
      try {
        ;[h, w] = smartResize(height, width, factor, minP, maxP)
      } catch (e) {
        return { tokens: null, how: `smart_resize raises: ValueError: ${(e as Error).message}` }
      }
      const gh = h / rule.patch_size
      const gw = w / rule.patch_size
      const tokens = (gh * gw) / (rule.merge_size * rule.merge_size)
      return { tokens, how: `smart_resize ${width}×${height} → ${w}×${h} (min_pixels ${minP}, max_pixels ${maxP}): ${gw}×${gh} patches of ${rule.patch_size}px / ${rule.merge_size}² = ${tokens} tokens (${rule.source})` }
    }
    case 'llava-next': {
      const tokens = llavaNextTokens(height, width, rule.image_size, rule.patch_size, rule.grid_pinpoints, rule.vision_feature_select_strategy)
      const [bh, bw] = selectBestResolution(height, width, rule.grid_pinpoints)
      return { tokens, how: `anyres ${width}×${height} → best resolution ${bw}×${bh} (${(bw / rule.image_size) * (bh / rule.image_size)} tiles of ${rule.image_size}px) + base image = ${tokens} tokens (${rule.source})` }
    }
    case 'mllama': {
      const tiles = mllamaTiles(height, width, rule.max_image_tiles, rule.tile_size)
      return { tokens: 0, crossAttention: tiles * rule.tokens_per_tile, how: `${width}×${height} → ${tiles} tile${tiles === 1 ? '' : 's'} of ${rule.tile_size}px × ${rule.tokens_per_tile} vision tokens, attended by cross-attention: the text holds only the <|image|> token (${rule.source})` }
    }
  }
}
