// BaseDataset.__init__ ends with `self._init_reader(**reader_cfg)`, which hands every key to
// DatasetReader.__init__: upstream fails there, before any prompt, on a key the reader does not take.
import { describe, expect, it } from 'vitest'
import { preparePipeline } from '../../../shared/engine'
import { input } from './helpers'

describe('reader_cfg keys', () => {
  it('refuses a key DatasetReader.__init__ does not take, as Python does', () => {
    const p = preparePipeline(input({ reader_cfg: { input_columns: ['question'], output_column: 'answer', input_column: 'question' } }))
    expect('code' in p ? [p.message, p.stage] : p).toEqual(["TypeError: DatasetReader.__init__() got an unexpected keyword argument 'input_column'", 'dataset'])
  })
})
