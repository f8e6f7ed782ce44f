// A precomputed ice_idx (project.json `iceIdx`) stands in for a retriever that needs model weights: the examples
// are the train rows the file names, for the app and for `promptloom render` on the project folder (issue #12).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'

// configs/datasets/flores/flores_gen_806ede.py, one language pair.
const FLORES = `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import TopkRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_evaluator import BleuEvaluator
from opencompass.datasets import FloresFirst100Dataset

flores_datasets = []
for _src, _tgt in [('eng', 'deu')]:
    _flores_source = 'eng_Latn'
    _flores_target = 'deu_Latn'
    flores_reader_cfg = dict(
        input_columns=f'sentence_{_flores_source}',
        output_column=f'sentence_{_flores_target}',
        train_split='dev',
        test_split='devtest'
    )
    flores_infer_cfg = dict(
        ice_template=dict(
            type=PromptTemplate,
            template=dict(
                begin='</E>',
                round=[
                    dict(role='HUMAN', prompt=f'Translate the following English statements to German.\\n{{sentence_{_flores_source}}}'),
                    dict(role='BOT', prompt=f'{{sentence_{_flores_target}}}'),
                ],
            ),
            ice_token='</E>',
        ),
        retriever=dict(type=TopkRetriever, ice_num=2),
        inferencer=dict(type=GenInferencer),
    )
    flores_datasets.append(
        dict(
            abbr=f'flores_100_{_src}-{_tgt}',
            type=FloresFirst100Dataset,
            path='opencompass/flores',
            name=f'{_flores_source}-{_flores_target}',
            reader_cfg=flores_reader_cfg.copy(),
            infer_cfg=flores_infer_cfg.copy(),
        ))
`

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-iceidx-'))
  mkdirSync(join(dir, 'data'))
  const row = (en: string, de: string) => JSON.stringify({ sentence_eng_Latn: en, sentence_deu_Latn: de })
  writeFileSync(join(dir, 'data', 'dev.jsonl'), [row('One.', 'Eins.'), row('Two.', 'Zwei.'), row('Three.', 'Drei.')].join('\n') + '\n')
  writeFileSync(join(dir, 'data', 'devtest.jsonl'), [row('Four.', 'Vier.')].join('\n') + '\n')
  writeFileSync(join(dir, 'flores.py'), FLORES)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function renderProject(iceIdx: unknown): Promise<{ code: number; line: { prompt: string; problems?: { message: string }[] } }> {
  writeFileSync(join(dir, 'ice.json'), JSON.stringify(iceIdx))
  writeFileSync(join(dir, 'project.json'), JSON.stringify({ dataset: 'data', config: 'flores.py', models: [], libraryModels: ['chatml'], iceIdx: { 'flores_100_eng-deu': 'ice.json' } }))
  let out = ''
  const code = await main(['render', '--config', dir], { stdout: (s) => void (out += s), stderr: () => {} })
  return { code, line: JSON.parse(out.trim().split('\n')[0]) }
}

describe('a precomputed ice_idx for TopkRetriever', () => {
  it('puts the train rows it names, in its order, before the question', async () => {
    const { line } = await renderProject([[2, 0]])
    expect(line.prompt).toContain('German.\nThree.<|im_end|>\n<|im_start|>assistant\nDrei.<|im_end|>\n<|im_start|>user\nTranslate the following English statements to German.\nOne.')
  })

  it('refuses a file whose lists do not match the test rows, and exits 1', async () => {
    const { code, line } = await renderProject([[0], [1]])
    expect([line.problems?.at(-1)?.message.includes('2 lists for 1 test rows'), code]).toEqual([true, 1])
  })
})
