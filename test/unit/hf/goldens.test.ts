// The golden corpus (jinja2 + transformers outputs for 157 real templates), when ../shared is beside the repo.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runHfChatTemplateCase } from '../../../shared/conformance/hf-chat-template'
import { SHARED_DIR } from '../../support/shared-dir'

const SHARED = SHARED_DIR
const CASES = join(SHARED, 'conformance/cases/hf-chat-template.jsonl')
const host = {
  loadChatTemplate: (name: string): string | undefined => {
    const f = join(SHARED, 'chat-templates/templates', `${name}.jinja`)
    return existsSync(f) ? readFileSync(f, 'utf8') : undefined
  }
}

describe.skipIf(!existsSync(CASES))('hf-chat-template goldens', () => {
  it('renders every golden case as transformers does', () => {
    const cases = readFileSync(CASES, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
    const failures: string[] = []
    for (const c of cases) {
      const out = runHfChatTemplateCase(c, host) as Record<string, unknown>
      const exp = c.expected
      const ok =
        'text' in exp
          ? out.text === exp.text
          : typeof out.error === 'string' && out.error.length > 0 && (exp.error_type !== 'raise_exception' || out.error === exp.error)
      if (!ok) failures.push(c.id)
    }
    expect(failures).toEqual([])
    expect(cases.length).toBeGreaterThan(1000)
  })
})
