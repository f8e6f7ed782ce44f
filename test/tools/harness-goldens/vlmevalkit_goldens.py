#!/usr/bin/env python3
"""Golden cases for PromptLoom's VLMEvalKit columns, made by running upstream.

    python vlmevalkit_goldens.py VLMEVALKIT_TREE SHARED_DIR OUT.jsonl

VLMEVALKIT_TREE: an export of open-compass/VLMEvalKit (the folder holding vlmeval/) at VLMEVALKIT_COMMIT.

What runs is upstream's own code, in the order vlmeval/inference.py calls it for an image MCQ set:
Qwen2VLChat.set_dump_image(dataset.dump_image); model.use_custom_prompt(dataset_name) (Qwen2VLPromptMixin, which
asks DATASET_TYPE); then model.build_prompt (Qwen2VLPromptMixin._build_mcq_prompt) or dataset.build_prompt
(ImageMCQDataset.build_prompt); then model.generate → BaseModel.preproc_content → Qwen2VLChat.generate_inner →
generate_inner_transformers → _prepare_content (ensure_image_url) → processor.apply_chat_template([messages],
tokenize=False, add_generation_prompt=True). The processor is transformers' real tokenizer-level
apply_chat_template (transformers 5.18.0, jinja2 3.1.6) with the model's chat template; generate_inner_transformers
is stopped right after it (the processor raises a private exception once the text is recorded), before any
image is read or any model runs.

Not run, and what stands in: vlmeval/__init__.py and vlmeval/dataset/__init__.py (they import every model and
dataset of the kit): the packages are entered without their __init__; DATASET_TYPE and DATASET_MODALITY are
upstream's function bodies, taken from vlmeval/dataset/__init__.py by source and executed over a registry holding
ImageMCQDataset only (the one class the cases use; a name outside it is a custom dataset, as upstream treats it).
Objects are made with object.__new__ and given the attributes their __init__ would set (ImageMCQDataset with
meta_only=True, i.e. a TSV with image_path and no base64 image; Qwen2VLChat without loading a model). The pictures
are 2×2 PNGs (made with Pillow) in a temporary folder (parse_file and ensure_image_url check they exist); the cases record each image
part as {"type": "image"} without its path.

Stubbed (stubs.py; any call raises): torch, qwen_vl_utils, sty — imported at module level by vlmeval.smp and
the Qwen2-VL model module, never called on the path above (each case lists them under "stubbed"). Installed from
wheels beside transformers: pandas, numpy, pillow, validators, termcolor, tabulate.
"""
import ast
import json
import os
import sys
import tempfile
import types
import warnings

VLMEVALKIT_COMMIT = 'e8e78f05f3080fe28154f2130321f17951c3be94'
UPSTREAM = f'open-compass/VLMEvalKit@{VLMEVALKIT_COMMIT}'

tree, shared, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
warnings.filterwarnings('ignore')

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import transformers  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402
from tokenizers.models import WordLevel  # noqa: E402
from transformers import PreTrainedTokenizerFast  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stubs  # noqa: E402

STUB = ['torch', 'qwen_vl_utils', 'sty', 'openai', 'portalocker', 'datasets',
        'timeout_decorator', 'dotenv']
stubs.install(STUB)
sys.path.insert(0, tree)
root = os.path.join(tree, 'vlmeval')


def package(name, path):
    m = types.ModuleType(name)
    m.__path__ = [path]
    sys.modules[name] = m
    return m


package('vlmeval', root)
ds_pkg = package('vlmeval.dataset', os.path.join(root, 'dataset'))
package('vlmeval.vlm', os.path.join(root, 'vlm'))
from vlmeval.dataset.image_mcq import ImageMCQDataset  # noqa: E402

# DATASET_TYPE / DATASET_MODALITY exactly as upstream writes them, over a registry of ImageMCQDataset.
src = open(os.path.join(root, 'dataset', '__init__.py'), encoding='utf-8').read()
ns = {'DATASET_CLASSES': [ImageMCQDataset], 'ConcatDataset': types.SimpleNamespace(DATASET_SETS={}), 'np': np,
      'warnings': warnings}
for node in ast.parse(src).body:
    if isinstance(node, ast.FunctionDef) and node.name in ('DATASET_TYPE', 'DATASET_MODALITY'):
        exec(compile(ast.Module(body=[node], type_ignores=[]), 'vlmeval/dataset/__init__.py', 'exec'), ns)
ds_pkg.DATASET_TYPE = ns['DATASET_TYPE']
ds_pkg.DATASET_MODALITY = ns['DATASET_MODALITY']

from vlmeval.vlm.qwen2_vl.model import Qwen2VLChat  # noqa: E402

def _png():
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.new('RGB', (2, 2), (200, 30, 30)).save(buf, format='PNG')
    return buf.getvalue()


PNG = _png()
img_dir = tempfile.mkdtemp(prefix='vlmeval-goldens-')

TEMPLATES = {
    # profile id: (chat template, special tokens)
    'qwen2.5-vl-instruct': ('Qwen--Qwen2.5-VL-7B-Instruct', {'eos_token': '<|im_end|>', 'pad_token': '<|endoftext|>'}),
}

ROWS = [
    {'index': 0, 'question': 'What shape is shown?', 'A': 'Square', 'B': 'Circle', 'C': 'Triangle', 'D': 'Star',
     'answer': 'C', 'image_path': 'shape.png'},
    {'index': 1, 'question': 'How many dots are there?', 'hint': 'Count carefully.', 'A': 2, 'B': 3, 'C': 4,
     'D': None, 'answer': 'B', 'image_path': 'dots.png'},
    {'index': 2, 'question': '图中是什么颜色？', 'A': '红色', 'B': '蓝色', 'answer': 'A', 'image_path': 'red.png'},
    {'index': 3, 'question': 'Which picture is brighter?', 'A': 'The first', 'B': 'The second', 'answer': 'A',
     'image_path': "['left.png', 'right.png']"},
    {'index': 4, 'question': 'Describe the picture in one word.', 'answer': 'cat', 'image_path': 'cat.png'},
    {'index': 5, 'question': 'Pick the odd one out.', 'hint': '提示：看颜色', 'A': 'red', 'B': 'blue', 'C': 'green',
     'D': 'apple', 'E': 'yellow', 'answer': 'D', 'image_path': 'odd.png'},
    {'index': 6, 'question': '  Spaces around  ', 'A': ' left ', 'B': 'right\n', 'answer': 'A', 'image_path': 'sp.png'},
]

SHAPES = {
    # dataset name (a VLMEvalKit MCQ benchmark, or a custom one), Qwen2VLChat kwargs
    'bench': dict(dataset='MMBench_DEV_EN', model={}),
    'bench-nocustom': dict(dataset='MMBench_DEV_EN', model={'use_custom_prompt': False}),
    'bench-sys': dict(dataset='MMStar', model={'system_prompt': 'You are a helpful assistant.'}),
    'custom': dict(dataset='my_mcq', model={}),
    'custom-sys': dict(dataset='my_mcq', model={'system_prompt': 'Answer with a letter.'}),
}


class _Recorded(Exception):
    pass


class Processor:
    """processor.apply_chat_template through transformers' real tokenizer implementation; stops the caller after."""

    def __init__(self, tok):
        self.tok = tok
        self.calls = []

    def apply_chat_template(self, conversation, **kw):
        text = self.tok.apply_chat_template(conversation, **kw)
        self.calls.append((conversation, text))
        raise _Recorded()


def make_processor(template_name, special):
    source = open(os.path.join(shared, 'chat-templates', 'templates', f'{template_name}.jinja'), encoding='utf-8').read()
    tok = PreTrainedTokenizerFast(tokenizer_object=Tokenizer(WordLevel({'<unk>': 0}, unk_token='<unk>')), **special)
    tok.chat_template = source
    return Processor(tok)


def make_dataset(name, rows):
    d = object.__new__(ImageMCQDataset)
    d.dataset_name = name
    d.meta_only = True
    d.img_root = img_dir
    d.data = pd.DataFrame(rows)
    return d


def make_model(kw, processor):
    m = object.__new__(Qwen2VLChat)
    m._use_custom_prompt = kw.get('use_custom_prompt', True)
    m.system_prompt = kw.get('system_prompt')
    m.min_pixels = m.max_pixels = m.total_pixels = None
    m.fps, m.nframe, m.FRAME_FACTOR = 2, 128, 2
    m.verbose = False
    m.post_process = False
    m.use_vllm = m.use_lmdeploy = False
    m.model_path = 'Qwen/Qwen2.5-VL-7B-Instruct'
    m.processor = processor
    return m


def strip_images(conv):
    out = []
    for msg in conv:
        c = msg['content']
        if isinstance(c, list):
            c = [{'type': 'image'} if p.get('type') == 'image' else dict(p) for p in c]
        out.append({'role': msg['role'], 'content': c})
    return out


def run_case(profile_id, shape_name):
    shape = SHAPES[shape_name]
    template_name, special = TEMPLATES[profile_id]
    processor = make_processor(template_name, special)
    files = []
    rows = []
    for r in ROWS:
        names = eval(r['image_path']) if r['image_path'].startswith('[') else [r['image_path']]
        for n in names:
            with open(os.path.join(img_dir, n), 'wb') as f:
                f.write(PNG)
        abs_names = [os.path.join(img_dir, n) for n in names]
        files += abs_names
        rows.append({**r, 'image_path': str(abs_names) if len(abs_names) > 1 else abs_names[0]})
    dataset = make_dataset(shape['dataset'], rows)
    model = make_model(shape['model'], processor)
    model.set_dump_image(dataset.dump_image)
    items = []
    for i in range(len(dataset.data)):
        line = dataset.data.iloc[i]
        custom = model.use_custom_prompt(shape['dataset'])
        struct = model.build_prompt(line, dataset=shape['dataset']) if custom else dataset.build_prompt(line)
        processor.calls.clear()
        try:
            model.generate(message=struct, dataset=shape['dataset'])
        except _Recorded:
            pass
        conv, text = processor.calls[-1]
        items.append({
            'index': i,
            'custom_prompt': custom,
            'struct': [{'type': s['type']} if s['type'] == 'image' else {'type': 'text', 'value': s['value']} for s in struct],
            'chat_messages': strip_images(conv[0]),
            'prompt': text[0],
        })
    test = []
    for r in ROWS:
        row = {k: v for k, v in r.items() if v is not None}
        test.append(row)
    return {
        'id': f'vlm-{shape_name}-{profile_id}',
        'family': 'vlmevalkit',
        'upstream': UPSTREAM,
        'transformers': transformers.__version__,
        'stubbed': sorted(stubs.STUBBED),
        'category': shape_name,
        'input': {
            'test': test,
            'model': {'profile': profile_id, 'chat_template': template_name, 'special_tokens': special,
                      # PromptLoom's option: is the set a custom one (DATASET_TYPE(name, default=None) is None)?
                      'harness': {'name': 'vlmevalkit', 'wrapper': 'Qwen2VLChat',
                                  'model_kwargs': {'custom_dataset': ds_pkg.DATASET_TYPE(shape['dataset'], default=None) is None,
                                                   **shape['model']}}},
            'dataset_name': shape['dataset'],
        },
        'expected': {'items': items},
    }


# A VLMEvalKit TSV with base64 pictures, read by the real ImageBaseDataset.__init__ (LMUData pointed at a temporary
# folder; a custom dataset name has no md5 or URL, so nothing is downloaded): pandas' TSV reading (empty cells NaN),
# index references (an `image` of ≤ 64 characters names another row's picture), list cells, dump_image.
B64 = __import__('base64').b64encode(PNG).decode()
TSV_ROWS = [
    ['index', 'question', 'hint', 'A', 'B', 'C', 'D', 'answer', 'image'],
    ['10', 'What colour is it?', '', 'red', 'blue', '', '', 'A', B64],
    ['11', 'And this one?', 'Same picture as before.', '1', '2', '3', '', 'B', '10'],
    ['12', '这是什么？', '', '猫', '狗', '', '', 'A', B64],
    ['13', 'Describe it.', '', '', '', '', '', 'x', B64],
    ['14', 'Which is larger?', '', 'left', 'right', '', '', 'A', str([B64, B64])],
]


def run_tsv_case(profile_id, shape_name):
    shape = SHAPES[shape_name]
    template_name, special = TEMPLATES[profile_id]
    processor = make_processor(template_name, special)
    lmu = tempfile.mkdtemp(prefix='vlmeval-lmudata-')
    os.environ['LMUData'] = lmu
    text = '\n'.join('\t'.join(r) for r in TSV_ROWS) + '\n'
    with open(os.path.join(lmu, 'promptloom_rows.tsv'), 'w', encoding='utf-8') as f:
        f.write(text)
    dataset = ImageMCQDataset(dataset='promptloom_rows')
    model = make_model(shape['model'], processor)
    model.set_dump_image(dataset.dump_image)
    items = []
    for i in range(len(dataset.data)):
        line = dataset.data.iloc[i]
        custom = model.use_custom_prompt(shape['dataset'])
        struct = model.build_prompt(line, dataset=shape['dataset']) if custom else dataset.build_prompt(line)
        processor.calls.clear()
        try:
            model.generate(message=struct, dataset=shape['dataset'])
        except _Recorded:
            pass
        conv, out = processor.calls[-1]
        items.append({
            'index': i,
            'custom_prompt': custom,
            'struct': [{'type': s['type']} if s['type'] == 'image' else {'type': 'text', 'value': s['value']} for s in struct],
            'chat_messages': strip_images(conv[0]),
            'prompt': out[0],
        })
    header, *rows = TSV_ROWS
    return {
        'id': f'vlm-tsv-{shape_name}-{profile_id}',
        'family': 'vlmevalkit',
        'upstream': UPSTREAM,
        'transformers': transformers.__version__,
        'stubbed': sorted(stubs.STUBBED),
        'category': f'tsv-{shape_name}',
        'input': {
            # The rows as PromptLoom's TSV reader gives them: every cell a string, an empty cell ''.
            'test': [dict(zip(header, r)) for r in rows],
            'model': {'profile': profile_id, 'chat_template': template_name, 'special_tokens': special,
                      'harness': {'name': 'vlmevalkit', 'wrapper': 'Qwen2VLChat',
                                  'model_kwargs': {'custom_dataset': ds_pkg.DATASET_TYPE(shape['dataset'], default=None) is None,
                                                   **shape['model']}}},
            'dataset_name': shape['dataset'],
        },
        'expected': {'items': items},
    }


def main():
    cases = [run_case(p, s) for p in TEMPLATES for s in SHAPES]
    cases += [run_tsv_case(p, s) for p in TEMPLATES for s in SHAPES]
    with open(out_path, 'w', encoding='utf-8') as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + '\n')
    print(f'{len(cases)} cases → {out_path}; stubbed: {", ".join(sorted(stubs.STUBBED))}', file=sys.stderr)


main()
