# PromptLoom demo: the test rows as AISBench's own multimodal dataset (after AISBench
# configs/datasets/mm_custom/mm_custom_gen.py). MMCustomDataset.load reads ../mm_custom.jsonl (one
# {"type", "path": [...], "question", "answer"} per line) and builds each row's `content`:
# <AIS_IMAGE_START>path<AIS_CONTENT_TAG> (or AUDIO) then <AIS_TEXT_START>question. MMPromptTemplate
# ignores the row's columns: it splits `content` on <AIS_CONTENT_TAG> and fills one prompt_mm part per
# segment, in order. Relative paths are read from the working directory (the demo folder).
# No in-context examples: MMPromptTemplate does not use ice_token.
from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.datasets import MMCustomDataset, MMCustomEvaluator

demo_mm_reader_cfg = dict(
    input_columns=['question', 'image', 'audio'],
    output_column='answer',
    train_split='train',
    test_split='test',
)

demo_mm_infer_cfg = dict(
    prompt_template=dict(
        type=MMPromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt_mm={
                    'text': {'type': 'text', 'text': '{question}\nAnswer with the option letter only.'},
                    'image': {'type': 'image_url', 'image_url': {'url': '{image}'}},
                    'audio': {'type': 'audio_url', 'audio_url': {'url': '{audio}'}},
                }),
            ],
        ),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)

demo_mm_eval_cfg = dict(
    evaluator=dict(type=MMCustomEvaluator),
)

demo_mm_datasets = [
    dict(
        abbr='demo-mm-prompt',
        type=MMCustomDataset,
        path='../mm_custom.jsonl',
        mm_type='path',
        reader_cfg=demo_mm_reader_cfg,
        infer_cfg=demo_mm_infer_cfg,
        eval_cfg=demo_mm_eval_cfg,
    ),
]
