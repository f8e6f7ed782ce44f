// Media token rules for the VL families whose processors tile or resize pictures, and for the audio models whose
// processors count a clip by its length. Every expected number here was worked out from the transformers source
// named beside it (transcribed into a Python script and run on the same sizes and sample counts), not from
// PromptLoom's code.
import { describe, expect, it } from 'vitest'
import {
  audioTokenCost,
  gemma4AudioTokens,
  gemma4ImageTokens,
  idefics3Grid,
  idefics3Tokens,
  imageTokenCost,
  lfm2VlTokens,
  llavaOnevisionTokens,
  samplesAt,
  selectBestResolution,
  videoTokenCost,
  whisperAudioTokens,
  type Lfm2VlOptions
} from '../../../shared/models/media-tokens'
import { loadProfileLibrary } from '../../../main/services/models/profile-library'

// models/llava_onevision/image_processing_pil_llava_onevision.py: image_grid_pinpoints
const OV_PINS = [384, 768, 1152, 1536, 1920, 2304].flatMap((h) =>
  [384, 768, 1152, 1536, 1920, 2304].map((w) => [h, w] as [number, number])
)
const OV = { imageSize: 384, numImageTokens: 729, pinpoints: OV_PINS, maxNumPatches: 9, strategy: 'full' as const }

// models/lfm2_vl/image_processing_lfm2_vl_fast.py: Lfm2VlImageProcessorFast class defaults
const LFM2: Lfm2VlOptions = {
  tile_size: 512,
  encoder_patch_size: 16,
  downsample_factor: 2,
  min_image_tokens: 64,
  max_image_tokens: 256,
  min_tiles: 2,
  max_tiles: 10,
  use_thumbnail: true,
  max_pixels_tolerance: 2,
  do_image_splitting: true
}

describe('Idefics3 / SmolVLM image splitting (processing_idefics3.py, image_processing_pil_idefics3.py)', () => {
  it('scales a small picture up to the longest edge: 100×100 → 4×4 tiles of 364 → 2912 tokens (Idefics3)', () => {
    expect(idefics3Grid(100, 100, 1456, 364)).toEqual([4, 4])
    expect(idefics3Tokens(4, 4, 169)).toBe(2912)
  })

  it('640×480 → 1456×1092 → 3 rows × 4 columns → 2227 tokens (Idefics3)', () => {
    expect(idefics3Grid(480, 640, 1456, 364)).toEqual([3, 4])
    expect(idefics3Tokens(3, 4, 169)).toBe(2227)
  })

  it('a tall 300×1200 picture is 4 rows × 1 column → 860 tokens (Idefics3), 420 (SmolVLM: 81 tokens, 384px tiles)', () => {
    expect(idefics3Tokens(...idefics3Grid(1200, 300, 1456, 364), 169)).toBe(860)
    expect(idefics3Tokens(...idefics3Grid(1200, 300, 1536, 384), 81)).toBe(420)
  })

  it('a picture of one tile has no grid: image_seq_len + 3', () => {
    expect(idefics3Tokens(0, 0, 169)).toBe(172)
  })

  it('the Idefics3 profile counts its picture by the rule', async () => {
    const p = (await loadProfileLibrary()).profiles.find((x) => x.id === 'idefics3-8b-llama3')!
    expect(imageTokenCost(p.media?.image?.tokens, { width: 640, height: 480 }).tokens).toBe(2227)
  })
})

describe('LLaVA-OneVision anyres_max_9 (processing_llava_onevision.py)', () => {
  it('a 384×384 picture: 27×27 base + 27×27 grid + 27 newlines = 1485', () => {
    expect(llavaOnevisionTokens(384, 384, OV, 1)).toBe(1485)
  })

  it('640×480 → best resolution 768×768 (2×2 crops), unpadded to 54×40 → 2929', () => {
    expect(selectBestResolution(480, 640, OV_PINS)).toEqual([768, 768])
    expect(llavaOnevisionTokens(480, 640, OV, 1)).toBe(2929)
  })

  it('a large picture is scaled down past 1.1 × anyres_max_9: 2304×2304 → 7371, 3000×1000 → 7215', () => {
    expect(llavaOnevisionTokens(2304, 2304, OV, 1)).toBe(7371)
    expect(llavaOnevisionTokens(1000, 3000, OV, 1)).toBe(7215)
  })

  it('a picture among several in one prompt is 729 + 1, whatever its size', () => {
    expect(llavaOnevisionTokens(2304, 2304, OV, 2)).toBe(730)
  })
})

describe('LFM2-VL (processing_lfm2_vl.py, image_processing_lfm2_vl_fast.py)', () => {
  it('a 256×256 picture stays one image: 8×8 tokens + image start/end = 66', () => {
    expect(lfm2VlTokens(256, 256, LFM2).tokens).toBe(66)
  })

  it('a small 60×100 picture is smart-resized up to min_image_tokens: 224×352 → 7×11 + 2 = 79', () => {
    const r = lfm2VlTokens(100, 60, LFM2)
    expect(r.resized).toEqual([352, 224])
    expect(r.tokens).toBe(79)
  })

  it('1024×768 is tiled 3×2 of 512 + a 576×416 thumbnail → 1779', () => {
    expect(lfm2VlTokens(768, 1024, LFM2).tokens).toBe(1779)
  })

  it('1920×1080 → 4×2 tiles + thumbnail → 2311; 3000×600 → 5×1 tiles + thumbnail → 1533', () => {
    expect(lfm2VlTokens(1080, 1920, LFM2).tokens).toBe(2311)
    expect(lfm2VlTokens(600, 3000, LFM2).tokens).toBe(1533)
  })
})

describe('Gemma 4 (image_processing_pil_gemma4.py get_aspect_ratio_preserving_size)', () => {
  it('224×224 → 768×768 → 16×16 pooled patches = 256 soft tokens', () => {
    expect(gemma4ImageTokens(224, 224, 16, 3, 280)).toEqual({ soft: 256, size: [768, 768] })
  })

  it('640×480 → 912×672 → 266; 1920×1080 → 1056×576 → 264; 4000×100 → 5040×96 → 210', () => {
    expect(gemma4ImageTokens(480, 640, 16, 3, 280).soft).toBe(266)
    expect(gemma4ImageTokens(1080, 1920, 16, 3, 280).soft).toBe(264)
    expect(gemma4ImageTokens(100, 4000, 16, 3, 280).soft).toBe(210)
  })

  it('the Gemma 4 profile counts the image tokens plus begin/end of image', async () => {
    const p = (await loadProfileLibrary()).profiles.find((x) => x.id === 'gemma-4-it')!
    expect(imageTokenCost(p.media?.image?.tokens, { width: 640, height: 480 }).tokens).toBe(268)
  })
})

describe('LFM2.5-VL built-in profile', () => {
  it('the 450M profile counts by the LFM2-VL rule with its thumbnail: 1024×768 → 3×2 tiles + thumbnail = 1779', async () => {
    const p = (await loadProfileLibrary()).profiles.find((x) => x.id === 'lfm2.5-vl-450m')!
    expect(imageTokenCost(p.media?.image?.tokens, { width: 1024, height: 768 }).tokens).toBe(1779)
  })
})

// WhisperFeatureExtractor(padding="max_length", truncation) attention_mask[:, ::160].sum(), then
// processing_qwen2_audio.py: (L - 1) // 2 + 1, (input_length - 2) // 2 + 1.
describe('Qwen2-Audio / Qwen2.5-Omni audio (processing_qwen2_audio.py, feature_extraction_whisper.py)', () => {
  it('1 s at 16 kHz → 100 mel frames → 25 tokens; 3 s → 75; 5 s → 125', () => {
    expect(whisperAudioTokens(16000, 160, 480000)).toBe(25)
    expect(whisperAudioTokens(48000, 160, 480000)).toBe(75)
    expect(whisperAudioTokens(80000, 160, 480000)).toBe(125)
  })

  it('a sample past a whole hop opens one more frame but not one more token: 16001 → 25', () => {
    expect(whisperAudioTokens(16001, 160, 480000)).toBe(25)
  })

  it('a clip of one hop or less gives 0 tokens, as upstream computes it', () => {
    expect(whisperAudioTokens(160, 160, 480000)).toBe(0)
  })

  it('Qwen2-Audio cuts at 30 s (750 tokens); a 300 s chunk_length (Qwen2.5-Omni) does not: 1,000,000 samples → 1562', () => {
    expect(whisperAudioTokens(1_000_000, 160, 480000)).toBe(750)
    expect(whisperAudioTokens(1_000_000, 160, 4_800_000)).toBe(1562)
  })
})

// processing_gemma4.py Gemma4Processor._compute_audio_num_tokens.
describe('Gemma 4 audio (processing_gemma4.py)', () => {
  it('1 s at 16 kHz → 25 tokens; 3 s → 75', () => {
    expect(gemma4AudioTokens(16000, 16000, 750)).toBe(25)
    expect(gemma4AudioTokens(48000, 16000, 750)).toBe(75)
  })

  it('the shortest clips: 161 samples → 1 token, 160 → 0', () => {
    expect(gemma4AudioTokens(161, 16000, 750)).toBe(1)
    expect(gemma4AudioTokens(160, 16000, 750)).toBe(0)
  })

  it('capped at audio_seq_length: 1,000,000 samples → 750', () => {
    expect(gemma4AudioTokens(1_000_000, 16000, 750)).toBe(750)
  })

  it('the Gemma 4 profile counts a 1.5 s clip at 22.05 kHz as 24000 samples at 16 kHz: 38 + begin/end of audio = 40', async () => {
    const p = (await loadProfileLibrary()).profiles.find((x) => x.id === 'gemma-4-it')!
    expect(audioTokenCost(p.media?.audio?.tokens, { samples: 33075, sampleRate: 22050 }).tokens).toBe(40)
  })
})

describe('audio resampling on load (librosa.load(sr=16000): resample, fix_length to ceil(n × sr / orig_sr))', () => {
  it('12345 samples at 22050 Hz → 8958; a clip at the model rate is unchanged', () => {
    expect(samplesAt({ samples: 12345, sampleRate: 22050 }, 16000)).toBe(8958)
    expect(samplesAt({ samples: 12345, sampleRate: 16000 }, 16000)).toBe(12345)
  })
})

describe('unknown media costs', () => {
  it('an audio rule without the exact clip length is unknown, never estimated', () => {
    const rule = { rule: 'gemma4-audio' as const, sampling_rate: 16000, audio_seq_length: 750, source: 't' }
    expect(audioTokenCost(rule, null).tokens).toBeNull()
  })

  it('a video without a fixed rule is unknown', () => {
    expect(videoTokenCost(undefined).tokens).toBeNull()
  })
})
