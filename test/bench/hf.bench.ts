// Renders per second of the HF chat-template renderer on real templates (compiled once, as the app does).
// Run: npx tsx test/bench/hf.bench.ts [seconds-per-case]
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Template } from '@huggingface/jinja'
import { compileChatTemplate, renderChatTemplate, type RenderOptions } from '../../shared/formats/hf'
import { SHARED_DIR } from '../support/shared-dir'

const TEMPLATES = join(SHARED_DIR, 'chat-templates/templates')
const load = (name: string): string => readFileSync(join(TEMPLATES, `${name}.jinja`), 'utf8')

const tools = [
  {
    type: 'function',
    function: {
      name: 'get_current_weather',
      description: 'Get the current weather in a given location',
      parameters: {
        type: 'object',
        properties: {
          location: { type: 'string', description: 'The city and country, e.g. Paris, France' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'The unit to return the temperature in.' }
        },
        required: ['location']
      }
    }
  }
]
const toolChat = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: "What's the weather like in Paris?" },
  { role: 'assistant', content: '', tool_calls: [{ id: 'call1', type: 'function', function: { name: 'get_current_weather', arguments: { location: 'Paris, France' } } }] },
  { role: 'tool', content: '22 degrees', tool_call_id: 'call1', name: 'get_current_weather' }
]
const multiTurn = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'Hello, how are you?' },
  { role: 'assistant', content: "I'm doing great. How can I help you today?" },
  { role: 'user', content: 'Can you explain what a chat template is?' }
]

const cases: [string, string, RenderOptions][] = [
  ['Llama-3.1-8B-Instruct, tools + call + result', 'meta-llama--Llama-3.1-8B-Instruct', { messages: toolChat, tools, add_generation_prompt: true, extra: { bos_token: '<|begin_of_text|>' }, now: '2025-07-10T12:00:00' }],
  ['Qwen3-0.6B, tools + call + result', 'Qwen--Qwen3-0.6B', { messages: toolChat, tools, add_generation_prompt: true }],
  ['ChatML, multi-turn', 'chujiezheng--chatml', { messages: multiTurn, add_generation_prompt: true }]
]

const seconds = Number(process.argv[2] ?? 2)
for (const [label, name, opts] of cases) {
  const source = load(name)
  const t0 = performance.now()
  const compiled = compileChatTemplate(source + ' ') // a fresh cache key, so this times a cold compile
  const compileMs = performance.now() - t0
  if (!compiled.ok) throw new Error(`${name}: ${compiled.error.message}`)
  const first = renderChatTemplate(compiled.template, opts)
  if (!first.ok) throw new Error(`${name}: ${first.error.message}`)
  for (let i = 0; i < 200; i++) renderChatTemplate(compiled.template, opts) // warm-up
  let n = 0
  const start = performance.now()
  while (performance.now() - start < seconds * 1000) {
    for (let i = 0; i < 50; i++) renderChatTemplate(compiled.template, opts)
    n += 50
  }
  const rate = n / ((performance.now() - start) / 1000)
  // The same render through @huggingface/jinja's own interpreter, for comparison.
  const hf = new Template(source)
  const ctx = { messages: opts.messages, tools: opts.tools ?? null, documents: null, add_generation_prompt: !!opts.add_generation_prompt, ...opts.extra }
  let m = 0
  const s2 = performance.now()
  while (performance.now() - s2 < seconds * 1000) {
    for (let i = 0; i < 50; i++) hf.render(ctx)
    m += 50
  }
  const hfRate = m / ((performance.now() - s2) / 1000)
  const fmt = (x: number): string => Math.round(x).toLocaleString('en-US')
  console.log(`${label}: ${fmt(rate)} renders/s (@huggingface/jinja: ${fmt(hfRate)}), ${first.text.length} chars, cold compile ${compileMs.toFixed(1)} ms`)
}
