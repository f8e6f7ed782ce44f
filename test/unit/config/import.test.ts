// importConfig over JSON, YAML and Python text: datasets and models found by their usual names.
import { describe, expect, it } from 'vitest'
import { at } from './config-diag'
import * as yamlLib from 'yaml'
import { configFormatOf, importConfig } from '../../../shared/config/import'

describe('importConfig', () => {
  it('reads a JSON config of the same shape, with type as the class name', () => {
    const text = JSON.stringify({
      demo_datasets: [{ abbr: 'demo', reader_cfg: { input_columns: ['q'], output_column: 'a' }, infer_cfg: { retriever: { type: 'ZeroRetriever' } } }],
      models: [{ abbr: 'm', max_seq_len: 4096, meta_template: { round: [] } }]
    })
    const r = importConfig(text, { file: 'c.json', format: 'json' })
    expect(r.diagnostics).toEqual([])
    expect(r.datasets).toMatchObject([{ variable: 'demo_datasets', index: 0, abbr: 'demo', infer_cfg: { retriever: { type: 'ZeroRetriever' } } }])
    expect(r.models).toMatchObject([{ variable: 'models', abbr: 'm', max_seq_len: 4096, meta_template: { round: [] } }])
  })

  it('accepts a bare dataset dict', () => {
    const r = importConfig('{"abbr": "x", "infer_cfg": {}, "reader_cfg": {}}', { file: 'c.json', format: 'json' })
    expect(r.datasets.map((d) => d.abbr)).toEqual(['x'])
  })

  it('reports JSON syntax errors with a line and column', () => {
    const r = importConfig('{\n  "a": 1,\n  oops\n}', { file: 'c.json', format: 'json' })
    expect(r.diagnostics).toHaveLength(1)
    expect(r.diagnostics[0]).toMatchObject({ source: 'c.json', ...at(3), severity: 'error' })
  })

  it('keeps int label keys from YAML as a label dict', () => {
    const yaml = 'x_datasets:\n  - abbr: s\n    reader_cfg: {}\n    infer_cfg:\n      prompt_template:\n        template:\n          0: neg\n          1: pos\n'
    const r = importConfig(yaml, { file: 'c.yaml', format: 'yaml', yaml: yamlLib })
    expect(r.datasets[0].infer_cfg).toEqual({ prompt_template: { template: { __label_dict__: [[0, 'neg'], [1, 'pos']] } } })
  })

  it('reports YAML errors with a position', () => {
    const r = importConfig('a: [1, 2\nb: 3\n', { file: 'c.yaml', format: 'yaml', yaml: yamlLib })
    expect(r.diagnostics[0]).toMatchObject({ source: 'c.yaml', severity: 'error' })
    expect(r.diagnostics[0].range?.start.line).toBeGreaterThan(0)
  })

  it('prefers a top-level `datasets` list and does not repeat datasets it shares with *_datasets', () => {
    const src = "a_datasets = [dict(abbr='a', infer_cfg=dict())]\nb_datasets = [dict(abbr='b', infer_cfg=dict())]\ndatasets = [*a_datasets]"
    const r = importConfig(src, { file: 'c.py', format: 'python' })
    expect(r.datasets.map((d) => d.abbr)).toEqual(['a'])
  })

  it('lists a dataset reached through two *_datasets variables twice, as upstream --datasets runs it, and says so', () => {
    const src = "a_datasets = [dict(abbr='a', infer_cfg=dict())]\nall_datasets = a_datasets + [dict(abbr='b', infer_cfg=dict())]"
    const r = importConfig(src, { file: 'c.py', format: 'python' })
    expect(r.datasets.map((d) => d.abbr)).toEqual(['a', 'a', 'b'])
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', message: expect.stringContaining("dataset 'a' is listed 2 times (a_datasets[0], all_datasets[0])") })
    ])
  })

  it('keeps a dataset dict without infer_cfg in a *_datasets list (custom datasets), as upstream lists it', () => {
    const src = "x_datasets = [dict(abbr='a', path='data/a.jsonl', data_type='mcq', infer_method='gen')]"
    expect(importConfig(src, { file: 'c.py', format: 'python' }).datasets.map((d) => d.abbr)).toEqual(['a'])
  })

  it('shortens dotted type paths of dumped configs to class names', () => {
    const src = "x_datasets = [dict(abbr='a', infer_cfg=dict(retriever=dict(type='opencompass.openicl.icl_retriever.ZeroRetriever')))]"
    const r = importConfig(src, { file: 'c.py', format: 'python' })
    expect(r.datasets[0].infer_cfg).toEqual({ retriever: { type: 'ZeroRetriever' } })
    expect(r.variables.x_datasets).toEqual([{ abbr: 'a', infer_cfg: { retriever: { type: 'opencompass.openicl.icl_retriever.ZeroRetriever' } } }])
  })

  it.each([
    ['a/b.py', 'python'],
    ['c.YAML', 'yaml'],
    ['d.yml', 'yaml'],
    ['e.json', 'json']
  ])('detects the format of %s', (file, format) => {
    expect(configFormatOf(file)).toBe(format)
  })
})

// opencompass/configs/datasets/chatobj_custom/chatobj_custom_gen.py: `chatobj_custom_datasets = dict(type=…)`.
describe('a *_datasets variable that is not a list', () => {
  it('says that upstream adds the dict\'s keys as datasets and fails on them', () => {
    const r = importConfig("chatobj_custom_datasets = dict(\n    type='ChatMLDataset',\n)", { file: 'c.py', format: 'python' })
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', message: expect.stringContaining("its keys ('type') are what upstream's `--datasets` adds as datasets (`datasets += cfg[k]`); OpenCompass then fails with TypeError: string indices must be integers, not 'str'") })
    ])
  })
})

// opencompass/configs/datasets/calm/calm.py: `calm_all_sets = list(set(key[:-3] for key in task_hiearchy_dict.keys()))`.
describe('a dataset list built from a set of str', () => {
  const src = "names = {'CORR-B_EN': 1, 'EAE-B_EN': 2}\nall_sets = list(set(k[:-3] for k in names.keys()))\nx_datasets = [dict(abbr=n, infer_cfg=dict()) for n in all_sets]"

  it('keeps first-insertion order', () => {
    expect(importConfig(src, { file: 'c.py', format: 'python' }).datasets.map((d) => d.abbr)).toEqual(['CORR-B', 'EAE-B'])
  })

  it('warns that upstream\'s order changes from run to run', () => {
    expect(importConfig(src, { file: 'c.py', format: 'python' }).diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', ...at(2), message: expect.stringContaining('randomised per process (PYTHONHASHSEED)') })
    ])
  })
})
