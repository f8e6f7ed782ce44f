// What one picture costs a vision-language model in tokens, by the rule its transformers processor applies to the
// real image size. Pure arithmetic: main reads the size (sharp metadata) and calls these. A rule PromptLoom does
// not know, or a picture whose size is unknown, gives null: the column says "unknown", never a guess.
import type { AudioRule, MediaRule, VideoRule } from './profile'

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

/** Python's int(x) for a finite float: toward zero. */
const pyInt = (x: number): number => Math.trunc(x)

/**
 * The (rows, cols) of tiles an Idefics3ImageProcessor (Idefics3 and SmolVLM) cuts a picture into, along the path
 * its preprocessing takes (transformers models/idefics3/image_processing_pil_idefics3.py): `resize` to the longest
 * edge (`_resize_output_size_rescale_to_max_len`: the longer side becomes `longestEdge` — small pictures are scaled
 * up — and the other side int(·), made even; then `_resize_output_size_scale_below_upper_bound` at MAX_IMAGE_SIZE
 * 4096), `resize_for_vision_encoder` (the longer side rounded up to a multiple of `tile`, the other side int(longer
 * / aspect) rounded up to a multiple), then `split_images` ((side - tile) // tile + 1 tiles a side, or 0 × 0 when
 * the picture is one tile). The processor's `_get_num_multimodal_tokens` reads `get_number_of_image_patches`,
 * which skips the int(longer / aspect) step; the prompt text follows the path here.
 */
export function idefics3Grid(height: number, width: number, longestEdge: number, tile: number): [number, number] {
  let h = height
  let w = width
  let ar = w / h
  if (w >= h) {
    w = longestEdge
    h = pyInt(w / ar)
    if (h % 2 !== 0) h += 1
  } else {
    h = longestEdge
    w = pyInt(h * ar)
    if (w % 2 !== 0) w += 1
  }
  h = Math.max(h, 1)
  w = Math.max(w, 1)
  ar = w / h
  if (w >= h && w > 4096) {
    w = 4096
    h = pyInt(w / ar)
  } else if (h > w && h > 4096) {
    h = 4096
    w = pyInt(h * ar)
  }
  h = Math.max(h, 1)
  w = Math.max(w, 1)
  ar = w / h
  if (w >= h) {
    w = Math.ceil(w / tile) * tile
    h = pyInt(w / ar)
    h = Math.ceil(h / tile) * tile
  } else {
    h = Math.ceil(h / tile) * tile
    w = pyInt(h * ar)
    w = Math.ceil(w / tile) * tile
  }
  if (h > tile || w > tile) return [Math.floor((h - tile) / tile) + 1, Math.floor((w - tile) / tile) + 1]
  return [0, 0]
}

/**
 * Tokens one `<image>` becomes in Idefics3Processor (models/idefics3/processing_idefics3.py): per tile
 * `<fake_token_around_image><row_r_col_c>` + image_seq_len × `<image>`, a "\n" after each row of tiles, then
 * "\n<fake_token_around_image><global-img>" + image_seq_len × `<image>` + `<fake_token_around_image>`. Counted as
 * the processor's `_get_num_multimodal_tokens` counts it: (seq + 3) + rows × ((seq + 2) × cols + 1) (the last row's
 * "\n" and the global image's "\n" make one "\n\n" token).
 */
export function idefics3Tokens(rows: number, cols: number, imageSeqLen: number): number {
  return imageSeqLen + 3 + rows * ((imageSeqLen + 2) * cols + 1)
}

/**
 * LlavaOnevisionProcessor (models/llava_onevision/processing_llava_onevision.py) `replace_image_token` +
 * `_get_number_of_features` / `_get_unpadded_features`: a picture alone in its prompt costs the base image
 * (num_image_tokens) + the unpadded anyres grid of its best resolution + one newline per grid row, the grid scaled
 * down by √(grid / (max_num_patches × patches²)) when that ratio passes 1.1 (anyres_max_N); a picture among several
 * costs num_image_tokens + 1. Minus one for vision_feature_select_strategy "default".
 */
export function llavaOnevisionTokens(
  origH: number,
  origW: number,
  o: { imageSize: number; numImageTokens: number; pinpoints: ReadonlyArray<readonly [number, number]>; maxNumPatches: number; strategy: 'default' | 'full' },
  imagesInPrompt: number
): number {
  let n: number
  if (imagesInPrompt > 1) n = o.numImageTokens + 1
  else {
    const [bh, bw] = selectBestResolution(origH, origW, o.pinpoints)
    const scaleH = Math.floor(bh / o.imageSize)
    const scaleW = Math.floor(bw / o.imageSize)
    const p = Math.trunc(Math.sqrt(o.numImageTokens))
    let curH = p * scaleH
    let curW = p * scaleW
    if (origW / origH > curW / curH) {
      const newH = int7(origH * (curW / origW))
      curH -= Math.floor((curH - newH) / 2) * 2
    } else {
      const newW = int7(origW * (curH / origH))
      curW -= Math.floor((curW - newW) / 2) * 2
    }
    let unpadded = curH * curW
    let newline = curH
    const ratio = Math.sqrt((curH * curW) / (o.maxNumPatches * p * p))
    if (ratio > 1.1) {
      unpadded = Math.trunc(Math.floor(curH / ratio)) * Math.trunc(Math.floor(curW / ratio))
      newline = Math.trunc(Math.floor(curH / ratio))
    }
    n = unpadded + newline + o.numImageTokens
  }
  return o.strategy === 'default' ? n - 1 : n
}

export interface Lfm2VlOptions {
  tile_size: number
  encoder_patch_size: number
  downsample_factor: number
  min_image_tokens: number
  max_image_tokens: number
  min_tiles: number
  max_tiles: number
  use_thumbnail: boolean
  max_pixels_tolerance: number
  do_image_splitting: boolean
}

const roundByFactor = (x: number, f: number): number => pyRound(x / f) * f

/**
 * Tokens one `<image>` becomes in Lfm2VlProcessor (models/lfm2_vl/processing_lfm2_vl.py
 * `expand_text_with_placeholders`, `_get_image_num_tokens`; image_processing_lfm2_vl_fast.py `resize_and_split`,
 * `smart_resize`, `_is_image_too_large`, `_get_grid_layout`, `find_closest_aspect_ratio`), with
 * use_image_special_tokens: `<|image_start|>`, then for a picture cut into tiles one `<|img_row_r_col_c|>` + the
 * tile's tokens per tile and, with a thumbnail, `<|img_thumbnail|>` + the thumbnail's tokens; for a picture kept
 * whole the (smart-resized) thumbnail's tokens only; then `<|image_end|>`.
 */
export function lfm2VlTokens(height: number, width: number, o: Lfm2VlOptions): { tokens: number; tiles: [number, number] | null; resized: [number, number] } {
  const minTiles = o.do_image_splitting ? o.min_tiles : 1
  const maxTiles = o.do_image_splitting ? o.max_tiles : 1
  const eps = o.encoder_patch_size
  const ds = o.downsample_factor
  const total = eps * ds
  const large = Math.max(eps, roundByFactor(height, total)) * Math.max(eps, roundByFactor(width, total)) > o.max_image_tokens * eps * eps * ds * ds * o.max_pixels_tolerance
  // smart_resize
  const minPx = o.min_image_tokens * eps * eps * ds * ds
  const maxPx = o.max_image_tokens * eps * eps * ds * ds
  let hBar = Math.max(total, roundByFactor(height, total))
  let wBar = Math.max(total, roundByFactor(width, total))
  if (hBar * wBar > maxPx) {
    const beta = Math.sqrt((height * width) / maxPx)
    hBar = Math.max(total, Math.floor(height / beta / total) * total)
    wBar = Math.max(total, Math.floor(width / beta / total) * total)
  } else if (hBar * wBar < minPx) {
    const beta = Math.sqrt(minPx / (height * width))
    hBar = Math.ceil((height * beta) / total) * total
    wBar = Math.ceil((width * beta) / total) * total
  }
  const thumb = o.use_thumbnail ? Math.ceil(Math.floor(hBar / eps) / ds) * Math.ceil(Math.floor(wBar / eps) / ds) : 0
  const tileSide = Math.ceil(Math.floor(o.tile_size / eps) / ds)
  const tileTokens = tileSide * tileSide
  const split = !(minTiles === maxTiles && maxTiles === 1)
  if (large && split) {
    const [gw, gh] = closestAspectRatio(width / height, lfm2TargetRatios(minTiles, maxTiles), width, height, o.tile_size)
    let tokens = 2 + gw * gh * (1 + tileTokens)
    if (gw > 1 || gh > 1) {
      if (thumb > 0) tokens += 1 + thumb
    } else tokens = 2 + thumb
    return { tokens, tiles: [gh, gw], resized: [hBar, wBar] }
  }
  return { tokens: 2 + thumb, tiles: null, resized: [hBar, wBar] }
}

/** `_target_ratios(min_tiles, max_tiles)`: every (w, h) with min ≤ w·h ≤ max, ordered by w·h. */
function lfm2TargetRatios(minTiles: number, maxTiles: number): Array<[number, number]> {
  const seen = new Set<string>()
  const out: Array<[number, number]> = []
  for (let n = minTiles; n <= maxTiles; n++)
    for (let w = 1; w <= n; w++)
      for (let h = 1; h <= n; h++) {
        const k = `${w},${h}`
        if (minTiles <= w * h && w * h <= maxTiles && !seen.has(k)) {
          seen.add(k)
          out.push([w, h])
        }
      }
  return out.sort((a, b) => a[0] * a[1] - b[0] * b[1])
}

/** `find_closest_aspect_ratio`: the closest w/h; on a tie the later ratio wins when the picture covers over half its area. */
function closestAspectRatio(aspect: number, ratios: Array<[number, number]>, width: number, height: number, size: number): [number, number] {
  let bestDiff = Infinity
  let best: [number, number] = [1, 1]
  const area = width * height
  for (const r of ratios) {
    const diff = Math.abs(aspect - r[0] / r[1])
    if (diff < bestDiff) {
      bestDiff = diff
      best = r
    } else if (diff === bestDiff && area > 0.5 * size * size * r[0] * r[1]) best = r
  }
  return best
}

/**
 * Gemma 4 (models/gemma4/image_processing_pil_gemma4.py `get_aspect_ratio_preserving_size`, processing_gemma4.py
 * `__call__`): the picture is resized, keeping its aspect, to the largest size of at most max_soft_tokens ×
 * pooling² patches of patch_size with sides multiple of pooling × patch_size; each pooling² patches is one soft
 * token, and the image token becomes `<boi>` + that many image tokens + `<eoi>`.
 */
export function gemma4ImageTokens(height: number, width: number, patch: number, pooling: number, maxSoftTokens: number): { soft: number; size: [number, number] } {
  const maxPatches = maxSoftTokens * pooling * pooling
  const targetPx = maxPatches * patch * patch
  const factor = Math.sqrt(targetPx / (height * width))
  const side = pooling * patch
  let th = Math.floor((factor * height) / side) * side
  let tw = Math.floor((factor * width) / side) * side
  if (th === 0 && tw === 0) throw new Error(`Attempting to resize to a 0 x 0 image. Resized height should be divisble by \`pooling_kernel_size * patch_size\`=${side}.`)
  const maxSide = Math.floor(maxPatches / (pooling * pooling)) * side
  if (th === 0) {
    th = side
    tw = Math.min(Math.floor(width / height) * side, maxSide)
  } else if (tw === 0) {
    tw = side
    th = Math.min(Math.floor(height / width) * side, maxSide)
  }
  if (th * tw > targetPx) throw new Error(`Resizing [${height}x${width}] to [${th}x${tw}] but this exceeds ${maxPatches} patches with patch_size ${patch}`)
  return { soft: Math.floor(((th / patch) * (tw / patch)) / (pooling * pooling)), size: [th, tw] }
}

/** The cost of one picture of size width×height under a profile's rule (vision_kwargs may override the pixel bounds). */
export function imageTokenCost(
  rule: MediaRule | undefined,
  size: { width: number; height: number } | null,
  visionKwargs: Record<string, unknown> = {},
  /** Pictures in the same prompt (LLaVA-OneVision treats a picture among several differently). */
  imagesInPrompt = 1
): MediaTokenCost {
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
    case 'idefics3': {
      if (!rule.do_image_splitting) {
        const tokens = idefics3Tokens(0, 0, rule.image_seq_len)
        return { tokens, how: `no image splitting: one ${rule.max_image_size}px image = ${tokens} tokens (${rule.source})` }
      }
      const [rows, cols] = idefics3Grid(height, width, rule.longest_edge, rule.max_image_size)
      const tokens = idefics3Tokens(rows, cols, rule.image_seq_len)
      return {
        tokens,
        how: `${width}×${height} → longest edge ${rule.longest_edge}px → ${rows ? `${cols}×${rows} tiles of ${rule.max_image_size}px + the global image` : `one ${rule.max_image_size}px image`}, ${rule.image_seq_len} <image> tokens each with their row/column and wrapper tokens = ${tokens} tokens (${rule.source})`
      }
    }
    case 'llava-onevision': {
      const tokens = llavaOnevisionTokens(height, width, { imageSize: rule.image_size, numImageTokens: rule.num_image_tokens, pinpoints: rule.grid_pinpoints, maxNumPatches: rule.max_num_patches, strategy: rule.vision_feature_select_strategy }, imagesInPrompt)
      if (imagesInPrompt > 1) return { tokens, how: `one of ${imagesInPrompt} pictures in the prompt: no anyres grid, ${rule.num_image_tokens} tokens + 1 newline${rule.vision_feature_select_strategy === 'default' ? ' − 1' : ''} = ${tokens} tokens (${rule.source})` }
      const [bh, bw] = selectBestResolution(height, width, rule.grid_pinpoints)
      return { tokens, how: `anyres_max_${rule.max_num_patches} ${width}×${height} → best resolution ${bw}×${bh} (${(bw / rule.image_size) * (bh / rule.image_size)} crops of ${rule.image_size}px) + base image = ${tokens} tokens (${rule.source})` }
    }
    case 'lfm2-vl': {
      const r = lfm2VlTokens(height, width, rule)
      const [rh, rw] = r.resized
      return {
        tokens: r.tokens,
        how: `${width}×${height} → ${r.tiles ? `${r.tiles[1]}×${r.tiles[0]} tiles of ${rule.tile_size}px${rule.use_thumbnail ? ` + a ${rw}×${rh} thumbnail` : ''}` : `${rw}×${rh}`}, with the image start/end and tile tokens = ${r.tokens} tokens (${rule.source})`
      }
    }
    case 'gemma4': {
      let g: { soft: number; size: [number, number] }
      try {
        g = gemma4ImageTokens(height, width, rule.patch_size, rule.pooling_kernel_size, rule.max_soft_tokens)
      } catch (e) {
        return { tokens: null, how: `the image processor raises: ValueError: ${(e as Error).message}` }
      }
      const tokens = g.soft + 2
      return { tokens, how: `${width}×${height} → ${g.size[1]}×${g.size[0]} (at most ${rule.max_soft_tokens} soft tokens of ${rule.pooling_kernel_size}² patches of ${rule.patch_size}px): ${g.soft} image tokens between the begin/end-of-image tokens = ${tokens} tokens (${rule.source})` }
    }
  }
}

/** An audio clip's length as its file gives it exactly: sample frames at the file's own rate. */
export interface AudioLength {
  samples: number
  sampleRate: number
}

/**
 * Samples the model's feature extractor receives: transformers' load_audio is librosa.load(path, sr=rate), which
 * resamples and then fixes the length to ceil(n × rate / file rate) (librosa.resample, fix=True).
 */
export function samplesAt(a: AudioLength, rate: number): number {
  return a.sampleRate === rate ? a.samples : Math.ceil((a.samples * rate) / a.sampleRate)
}

/**
 * Qwen2AudioProcessor `__call__` (models/qwen2_audio/processing_qwen2_audio.py, transformers 0851a87) and
 * Qwen2_5OmniProcessor `__call__` (models/qwen2_5_omni/processing_qwen2_5_omni.py, 45a60df): WhisperFeatureExtractor
 * pads to max_length (chunk_length × sampling_rate samples, truncating longer clips) and returns the attention
 * mask taken every hop_length samples (feature_extraction_whisper.py: `attention_mask[:, :: self.hop_length]`), so
 * L = ⌈min(n, max) / hop⌉ mel frames; then `input_length = (L - 1) // 2 + 1` and `(input_length - 2) // 2 + 1`
 * `<|AUDIO|>` tokens (0 for a clip under one hop, as upstream gives).
 */
export function whisperAudioTokens(samples: number, hopLength: number, maxSamples: number): number {
  const frames = Math.ceil(Math.min(samples, maxSamples) / hopLength)
  const inputLength = Math.floor((frames - 1) / 2) + 1
  return Math.floor((inputLength - 2) / 2) + 1
}

/**
 * Gemma4Processor `_compute_audio_num_tokens` (models/gemma4/processing_gemma4.py, transformers 3839910): 20 ms
 * frames every 10 ms over the clip with 10 ms of left padding, then two kernel-3 stride-2 convolutions padded 1 + 1,
 * capped at audio_seq_length.
 */
export function gemma4AudioTokens(samples: number, samplingRate: number, audioSeqLength: number): number {
  const frameLength = Math.round((samplingRate * 20) / 1000)
  const hop = Math.round((samplingRate * 10) / 1000)
  const melFrames = Math.floor((samples + Math.floor(frameLength / 2) - (frameLength + 1)) / hop) + 1
  if (melFrames <= 0) return 0
  let t = melFrames
  for (let i = 0; i < 2; i++) t = Math.floor((t + 2 - 3) / 2) + 1
  return Math.min(t, audioSeqLength)
}

/** The cost of one audio clip under a profile's rule; null (unknown) without a rule or an exact length. */
export function audioTokenCost(rule: AudioRule | undefined, length: AudioLength | null): MediaTokenCost {
  if (!rule) return { tokens: null, how: 'no audio token rule is known for this model: the count is the text only' }
  if (rule.rule === 'fixed') return { tokens: rule.tokens, how: `${rule.tokens} tokens per clip (${rule.source})` }
  if (!length) return { tokens: null, how: "the clip's exact length is unknown (missing file, or a format whose decoded sample count is not in its header: only WAV and FLAC give it)" }
  const n = samplesAt(length, rule.sampling_rate)
  const resampled = length.sampleRate === rule.sampling_rate ? `${n} samples` : `${length.samples} samples at ${length.sampleRate} Hz → ${n} at ${rule.sampling_rate} Hz`
  if (rule.rule === 'whisper-audio') {
    const max = rule.chunk_length * rule.sampling_rate
    const tokens = whisperAudioTokens(n, rule.hop_length, max)
    return { tokens, how: `${resampled}${n > max ? `, cut to ${rule.chunk_length} s` : ''} → ${Math.ceil(Math.min(n, max) / rule.hop_length)} mel frames, pooled twice by 2 = ${tokens} tokens (${rule.source})` }
  }
  const soft = gemma4AudioTokens(n, rule.sampling_rate, rule.audio_seq_length)
  return { tokens: soft + 2, how: `${resampled} → ${soft} audio tokens (10 ms frames, two stride-2 convolutions, at most ${rule.audio_seq_length}) between the begin/end-of-audio tokens = ${soft + 2} tokens (${rule.source})` }
}

/** The cost of one video under a profile's rule: only a fixed count is known (see VideoRule). */
export function videoTokenCost(rule: VideoRule | undefined): MediaTokenCost {
  if (!rule) return { tokens: null, how: "no video token rule is known for this model: the frames its caller samples decide the count, so it is not guessed; the count is the text only" }
  return { tokens: rule.tokens, how: `${rule.tokens} tokens per video (${rule.source})` }
}
