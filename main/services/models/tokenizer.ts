// Token counts for a model: exact with the model's own tokenizer.json (through @huggingface/tokenizers, a pure
// JavaScript implementation of Hugging Face tokenizers, nothing downloaded), otherwise an estimate that says so.
import { readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { Tokenizer } from '@huggingface/tokenizers'
import type { ModelProfile } from '../../../shared/models/profile'
import type { TokenCount } from '../../../shared/models/signals'
import { estimateTokens } from '../../../shared/models/render-for-model'

export interface Encoded {
  ids: number[]
  tokens: string[]
}

export interface TokenCounter {
  /** true when counts come from the model's own tokenizer. */
  exact: boolean
  /** tokenizer.json path, or why the count is an estimate. */
  source: string
  /**
   * Tokens in `text`. `addSpecialTokens` (default false) adds what the tokenizer's post-processor adds (BOS for
   * Llama-style tokenizers); rendered chat text already holds its special tokens, as apply_chat_template assumes.
   */
  count(text: string, opts?: { addSpecialTokens?: boolean }): TokenCount
  /** Ids and token strings; only for exact counters. */
  encode?(text: string, opts?: { addSpecialTokens?: boolean }): Encoded
}

export interface TokenizerLoadError {
  code: 'tokenizer-missing' | 'tokenizer-invalid'
  message: string
  stage: 'tokenizer'
  at: { path: string }
}

// Loading a large tokenizer.json takes hundreds of milliseconds; keep loaded ones keyed by path and mtime.
const cache = new Map<string, { mtimeMs: number; tokenizer: Tokenizer }>()

/** Loads tokenizer.json (and tokenizer_config.json beside it, if any). */
export async function loadHfTokenizer(path: string): Promise<{ ok: true; tokenizer: Tokenizer } | { ok: false; error: TokenizerLoadError }> {
  let mtimeMs: number
  try {
    mtimeMs = (await stat(path)).mtimeMs
  } catch (e) {
    return { ok: false, error: { code: 'tokenizer-missing', message: (e as Error).message, stage: 'tokenizer', at: { path } } }
  }
  const hit = cache.get(path)
  if (hit && hit.mtimeMs === mtimeMs) return { ok: true, tokenizer: hit.tokenizer }
  try {
    const json = JSON.parse(await readFile(path, 'utf8'))
    let config: object = {}
    try {
      config = JSON.parse(await readFile(join(dirname(path), 'tokenizer_config.json'), 'utf8'))
    } catch {}
    const tokenizer = new Tokenizer(json, config)
    cache.set(path, { mtimeMs, tokenizer })
    return { ok: true, tokenizer }
  } catch (e) {
    return { ok: false, error: { code: 'tokenizer-invalid', message: `cannot load ${path}: ${(e as Error).message}`, stage: 'tokenizer', at: { path } } }
  }
}

/** An exact counter over a loaded tokenizer. */
export function exactCounter(tokenizer: Tokenizer, source: string): TokenCounter {
  const encode = (text: string, opts: { addSpecialTokens?: boolean } = {}): Encoded => {
    const e = tokenizer.encode(text, { add_special_tokens: opts.addSpecialTokens ?? false })
    return { ids: e.ids, tokens: e.tokens }
  }
  return {
    exact: true,
    source,
    encode,
    count: (text, opts) => ({ count: encode(text, opts).ids.length, exact: true })
  }
}

/** An estimating counter (characters per token), always marked `exact: false`. */
export function estimateCounter(reason: string, charsPerToken?: number): TokenCounter {
  return { exact: false, source: reason, count: (text) => estimateTokens(text, charsPerToken) }
}

/**
 * The best counter for a profile: its tokenizer.json when the profile names one that loads, else an estimate.
 * A relative tokenizer path is resolved against `baseDir` (the profile's folder).
 */
export async function tokenCounterForProfile(profile: ModelProfile, opts: { baseDir?: string } = {}): Promise<TokenCounter> {
  const t = profile.tokenizer
  if (t?.kind === 'package') {
    // The package's own tokenizer.json, resolved from this install (node_modules), loaded once and cached.
    let path: string
    try {
      path = createRequire(__filename).resolve(`${t.name}/models/tokenizer.json`)
    } catch {
      return estimateCounter(`estimate: ${t.name} is not installed`)
    }
    const r = await loadHfTokenizer(path)
    if (r.ok) return exactCounter(r.tokenizer, t.name)
    return estimateCounter(`estimate: ${r.error.message}`)
  }
  if (t?.kind === 'hf-json') {
    const path = isAbsolute(t.path) ? t.path : resolve(opts.baseDir ?? process.cwd(), t.path)
    const r = await loadHfTokenizer(path)
    if (r.ok) return exactCounter(r.tokenizer, path)
    return estimateCounter(`estimate: ${r.error.message}`)
  }
  return estimateCounter('estimate: the profile names no tokenizer.json', t?.kind === 'estimate' ? t.chars_per_token : undefined)
}
