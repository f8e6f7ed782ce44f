# PromptLoom demo: an AISBench-style multiple-choice config over a small picture/audio set.
# Four variants of one task, to compare how each model profile renders them:
#   demo-mm-media     AISBench's MMPromptTemplate: each row's `content` (AIS tags) becomes prompt_mm
#                     parts, the picture or clip then the question, and each model receives them as
#                     upstream sends them (an API model as content parts, a vision-language chat template
#                     as a content list, a text-only meta template without them: an empty turn)
#   demo-mm-string    a plain string template: OpenCompass's LMTemplateParser passes a str through
#                     unchanged, so no model's meta template is applied to it
#   demo-mm-dialogue  a dialogue (meta) template with a SYSTEM turn and in-context rounds
#   demo-mm-ppl       label templates for PPLInferencer: one prompt per option A-D, each scored
# All take rows 0, 1 and 2 of the train split as in-context examples; '</E>' marks where they go.
from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate
from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import FixKRetriever, ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.openicl.icl_inferencer import PPLInferencer
from ais_bench.benchmark.openicl.icl_evaluator import AccEvaluator
from ais_bench.benchmark.datasets import CustomDataset
from ais_bench.benchmark.utils.postprocess.text_postprocessors import first_option_postprocess

# Multimodal variant: MMPromptTemplate reads only `content` (as MMCustomDataset.load builds it, with the
# options in the text segment); no in-context examples.
demo_media_reader_cfg = dict(
    input_columns=['content'],
    output_column='answer',
    train_split='train',
    test_split='test',
)

demo_media_infer_cfg = dict(
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

demo_reader_cfg = dict(
    input_columns=['question', 'A', 'B', 'C', 'D'],
    output_column='answer',
    train_split='train',
    test_split='test',
)

# String variant: each example ends with its answer; examples are joined by the retriever's
# ice_separator ('\n') and followed by its ice_eos_token ('\n').
demo_string_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template='Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: {answer}\n',
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template='The following are multiple-choice questions about a picture or a short spoken clip.\n\n</E>Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer:',
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2]),
    inferencer=dict(type=GenInferencer),
)

# Dialogue variant: each example is a HUMAN/BOT round. The SYSTEM turn falls back to HUMAN for
# models whose meta template has no SYSTEM role.
demo_dialogue_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt='Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer with the letter only.'),
                dict(role='BOT', prompt='{answer}'),
            ],
        ),
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[
                dict(role='SYSTEM', fallback_role='HUMAN', prompt='You answer multiple-choice questions about a picture or a short spoken clip.'),
                '</E>',
            ],
            round=[
                dict(role='HUMAN', prompt='Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer with the letter only.'),
                dict(role='BOT', prompt='{answer}'),
            ],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2]),
    inferencer=dict(type=GenInferencer),
)

# PPL variant (after OpenCompass configs/datasets/mmlu/mmlu_ppl_ac766d.py): the templates map each
# label to a prompt ending in that answer. PPLInferencer renders every label's prompt for a row and
# picks the one the model finds most likely; each in-context example uses its own answer's template.
demo_question = 'Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '
demo_ppl_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template={opt: f'{demo_question}{opt}\n' for opt in ['A', 'B', 'C', 'D']},
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template={opt: f'The following are multiple-choice questions about a picture or a short spoken clip.\n\n</E>{demo_question}{opt}' for opt in ['A', 'B', 'C', 'D']},
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2]),
    inferencer=dict(type=PPLInferencer),
)

demo_eval_cfg = dict(
    evaluator=dict(type=AccEvaluator),
    pred_role='BOT',
    pred_postprocessor=dict(type=first_option_postprocess, options='ABCD'),
)

demo_ppl_eval_cfg = dict(
    evaluator=dict(type=AccEvaluator),
)

demo_datasets = [
    dict(
        abbr='demo-mm-media',
        type=CustomDataset,
        path='../data',
        reader_cfg=demo_media_reader_cfg,
        infer_cfg=demo_media_infer_cfg,
        eval_cfg=demo_eval_cfg,
    ),
    dict(
        abbr='demo-mm-string',
        type=CustomDataset,
        path='../data',
        reader_cfg=demo_reader_cfg,
        infer_cfg=demo_string_infer_cfg,
        eval_cfg=demo_eval_cfg,
    ),
    dict(
        abbr='demo-mm-dialogue',
        type=CustomDataset,
        path='../data',
        reader_cfg=demo_reader_cfg,
        infer_cfg=demo_dialogue_infer_cfg,
        eval_cfg=demo_eval_cfg,
    ),
    dict(
        abbr='demo-mm-ppl',
        type=CustomDataset,
        path='../data',
        reader_cfg=demo_reader_cfg,
        infer_cfg=demo_ppl_infer_cfg,
        eval_cfg=demo_ppl_eval_cfg,
    ),
]
