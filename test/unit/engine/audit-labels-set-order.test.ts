// Audit: PPL labels taken from the output column are `list(set(column))` (BaseRetriever.get_labels in
// opencompass/openicl/icl_retriever/icl_base_retriever.py, and AIS's copy). CPython orders a set by hash-table
// slot (Objects/setobject.c set_add_entry / set_table_resize), which is reproducible for ints, bools and floats.
// Expected orders below were printed by CPython 3.11: `list(set(values))`.
import { describe, expect, it } from 'vitest'
import { PyFloat } from '../../../shared/engine'
import { pyKeyEq } from '../../../shared/python/json'
import { pySetOrder } from '../../../shared/engine/py-set-order'
import { codes, prep, render, ZERO } from './helpers'

describe('pySetOrder = CPython list(set(values))', () => {
  const table: Array<[string, unknown[], unknown[]]> = [
    ['small ints come out ascending', [2, 1, 0], [0, 1, 2]],
    ['ints beyond the 8-slot table follow their slot, not their value', [10, 3], [10, 3]],
    ['a colliding int takes the next probe slot', [8, 0], [8, 0]],
    ['bools hash as 0 and 1', [true, false], [false, true]],
    ['-1 hashes as -2 (slot 6 of 8)', [-1, 0], [0, -1]],
    ['1 == 1.0 == True: the first inserted stays', [1, true, new PyFloat(1)], [1]],
    ['a resize to 32 slots keeps slot order', [5, 13, 21, 29, 37, 45, 53, 61, 69, 77, 85, 93], [37, 5, 69, 13, 45, 77, 61, 93, 21, 53, 85, 29]],
    ['non-integral floats use _Py_HashDouble', [new PyFloat(0.5), new PyFloat(1.5), new PyFloat(-2.5), 3], [new PyFloat(0.5), new PyFloat(1.5), 3, new PyFloat(-2.5)]]
  ]
  it.each(table)('%s', (_name, values, expected) => {
    expect(pySetOrder(values, pyKeyEq)).toEqual(expected)
  })

  it('gives up on str values, whose hashes are randomised per process', () => {
    expect(pySetOrder(['a', 'b'], pyKeyEq)).toBeUndefined()
  })
})

describe('get_labels from the output column', () => {
  const ppl = (test: Record<string, unknown>[]) => ({
    mode: 'ppl' as const,
    reader_cfg: { input_columns: ['q'], output_column: 'label' },
    test,
    infer_cfg: { prompt_template: { type: 'PromptTemplate', template: '{q}' }, retriever: ZERO, inferencer: { type: 'PPLInferencer' } }
  })

  it('orders bool labels False, True whatever the row order', () => {
    expect(prep(ppl([{ q: 'a', label: true }, { q: 'b', label: false }])).labels).toEqual([false, true])
  })

  it('orders large int labels by set slot, as CPython does', () => {
    expect(prep(ppl([{ q: 'a', label: 100 }, { q: 'b', label: 1 }, { q: 'c', label: 50 }])).labels).toEqual([1, 50, 100])
    expect(prep(ppl([{ q: 'a', label: 10 }, { q: 'b', label: 3 }])).labels).toEqual([10, 3])
  })

  it('keeps one of equal labels 1 and 1.0 (Python equality), without the set-order warning', () => {
    const r = render(ppl([{ q: 'a', label: new PyFloat(1) }, { q: 'b', label: 1 }]))
    expect(r.items.map((it) => it.label)).toEqual([new PyFloat(1)])
    expect(codes(r)).not.toContain('labels-set-order')
  })

  it('still warns for str labels, whose order upstream varies between runs', () => {
    const p = prep(ppl([{ q: 'a', label: 'x' }, { q: 'b', label: 'y' }]))
    expect(p.labels).toEqual(['x', 'y'])
    expect(p.warnings.map((w) => w.code)).toContain('labels-set-order')
  })
})
