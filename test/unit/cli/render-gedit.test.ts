// `promptloom render` on an AISBench GEdit config over a `datasets.save_to_disk` folder: the rows are the ones
// GEditDataset.load() builds (split 1 of 5 → row 1), each picture re-encoded as Pillow writes PNG, and an API chat
// model receives it as an image_url part before the instruction (#9). The source folder is left as it was.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'

const fx = join(__dirname, '../../fixtures/arrow')
const meta = JSON.parse(readFileSync(join(fx, 'gedit.json'), 'utf8')) as {
  features: Record<string, unknown>
  pictures: Array<Record<'input_image' | 'input_image_raw', { png: string }>>
}

const CONFIG = `from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import LMMGenInferencer
from ais_bench.benchmark.datasets import GEditDataset

gedit_reader_cfg = dict(input_columns=['question', 'image'], output_column='task_type')
gedit_infer_cfg = dict(
    prompt_template=dict(type=MMPromptTemplate, template=dict(round=[dict(role="HUMAN", prompt_mm={
        "text": {"type": "text", "text": "{question}"},
        "image": {"type": "image_url", "image_url": {"url": "data:image/png;base64,{image}"}},
    })])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=LMMGenInferencer))
gedit_datasets = [dict(abbr='gedit', type=GEditDataset, path='GEdit-Bench', split_count=5, split_index=1, reader_cfg=gedit_reader_cfg, infer_cfg=gedit_infer_cfg)]
`

async function run(args: string[]) {
  let out = ''
  let err = ''
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) })
  return {
    code,
    out,
    err,
    lines: out.trim()
      ? out
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : []
  }
}

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-render-gedit-'))
  const data = join(dir, 'GEdit-Bench')
  cpSync(join(fx, 'gedit.arrow'), join(data, 'data-00000-of-00001.arrow'), { recursive: true })
  writeFileSync(join(data, 'dataset_info.json'), JSON.stringify({ features: meta.features }))
  writeFileSync(
    join(data, 'state.json'),
    JSON.stringify({ _data_files: [{ filename: 'data-00000-of-00001.arrow' }], _split: null })
  )
  writeFileSync(join(dir, 'gedit_gen.py'), CONFIG)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('render: GEditDataset over a save_to_disk folder', () => {
  it('sends the picture as Pillow PNG base64, then the instruction, to an API chat model', async () => {
    const r = await run([
      'render',
      '--config',
      join(dir, 'gedit_gen.py'),
      '--model',
      'openai-messages',
      '--format',
      'messages'
    ])
    expect(r.code).toBe(0)
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0].gold).toBe('color_alter')
    expect(r.lines[0].prompt).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${meta.pictures[1].input_image.png}` } },
          { type: 'text', text: '把汽车的颜色改成红色 #1' }
        ]
      }
    ])
  })

  it('writes nothing into the data folder', async () => {
    await run(['render', '--config', join(dir, 'gedit_gen.py'), '--model', 'openai-messages'])
    expect(readdirSync(join(dir, 'GEdit-Bench')).sort()).toEqual([
      'data-00000-of-00001.arrow',
      'dataset_info.json',
      'state.json'
    ])
  })
})
