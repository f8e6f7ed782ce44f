// FastChat's get_conversation_template(model_path) — what OpenCompass's `fastchat_template=NAME` renders through —
// against FastChat itself at HEAD (0e6d3e4b) and at v0.2.36 (model-adapters.json, written by
// test/tools/fastchat_adapters.py from both trees): the adapter each model path picks and the template it gives.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { conversationTemplateForModel } from '../../../shared/formats/fastchat/model-adapters'

type Row = { path: string; adapter: string; template: string }
const table: Record<'head' | 'v0.2.36', Row[]> = JSON.parse(readFileSync(new URL('./model-adapters.json', import.meta.url), 'utf8'))

describe.each(['head', 'v0.2.36'] as const)('FastChat %s: the adapter and template for a model path', (version) => {
  it(`picks FastChat's for all ${table[version].length} paths`, () => {
    const bad = table[version].filter((r) => {
      const got = conversationTemplateForModel(r.path, version)
      return got.adapter !== r.adapter || got.template !== r.template
    })
    expect(bad).toEqual([])
  })
})
