// TopkRetriever / MDLRetriever rank train rows with model weights (sentence-transformers, and MDL a language
// model): no row's examples can be known without them, and the problem says which weights upstream would load.
import { describe, expect, it } from 'vitest'
import { retrieveIndices, type RetrieveContext } from '../../../shared/engine/retrievers'

const ctx: RetrieveContext = { train: [{ q: 'a', a: '1' }], test: [{ q: 'b', a: '2' }], inputColumns: ['q'], outputColumn: 'a', family: 'opencompass' }

describe('model-ranked retrievers', () => {
  it('names the language model MDLRetriever scores candidates with (configs/datasets/commonsenseqa/commonsenseqa_ppl_716f78.py)', () => {
    const r = retrieveIndices({ type: 'MDLRetriever', ice_num: 8, candidate_num: 30, select_time: 10, ce_model_name: 'gpt2-xl' }, ctx)
    expect(r.ok ? '' : r.error.message).toContain("scores 30 candidate example sets 10 times with the language model 'gpt2-xl'")
  })
})
