// Model classes map to the template parser and default meta template their upstream class installs, not to a
// guess from their name (issue #12): AISBench's VLLMCustomAPIChat is an API model with a default chat template.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importProfileFromOpenCompassConfig } from '../../../main/services/models/import-opencompass-config'
import { modelClassInfo } from '../../../shared/models/model-classes'

const FIX = join(__dirname, '../../fixtures/configs')

describe('model classes', () => {
  it('imports an AISBench VLLMCustomAPIChat config as an API-parser model with its default chat meta template', async () => {
    const r = await importProfileFromOpenCompassConfig(join(FIX, 'ais_bench/benchmark/configs/models/vllm_api/vllm_api_general_chat.py'))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const p = r.profiles[0] as Record<string, unknown>
    expect([p.meta_parser, p.meta_family]).toEqual(['api', 'aisbench'])
    expect(p.meta_template).toEqual({
      reserved_roles: [{ api_role: 'SYSTEM', role: 'SYSTEM' }],
      round: [
        { api_role: 'HUMAN', role: 'HUMAN' },
        { api_role: 'BOT', generate: true, role: 'BOT' }
      ]
    })
    expect(r.warnings.map((w) => w.code)).toContain('default-meta-template')
  })

  it.each([
    ['VLLMCustomAPI', 'aisbench', 'lm'],
    ['VLLMCustomAPIChat', 'aisbench', 'api'],
    ['Llama2', 'opencompass', 'api'],
    ['VLLM', 'opencompass', 'lm'],
    ['TurboMindAPIModel', 'opencompass', 'lm'],
    ['OpenAISDK', 'opencompass', 'api']
  ] as const)('%s (%s) uses the %s parser, as its class does', (cls, family, parser) => {
    expect(modelClassInfo(cls, family)?.parser).toBe(parser)
  })

  it('knows nothing of a class neither framework has', () => {
    expect(modelClassInfo('MyOwnModel')).toBeUndefined()
  })
})
