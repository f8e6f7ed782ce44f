# A vision-language chat-template model, after AISBench configs/models/hf_models/hf_chat_model.py:
# HuggingFacewithChatTemplate renders Qwen2.5-VL's own chat template (PromptLoom's built-in profile
# qwen2.5-vl-instruct, found by its Hugging Face name) with the content parts, on the tokenizer path: an
# image part becomes <|vision_start|><|image_pad|><|vision_end|>; the template has nothing for audio.
from ais_bench.benchmark.models import HuggingFacewithChatTemplate

models = [
    dict(
        attr="local",
        type=HuggingFacewithChatTemplate,
        abbr='qwen2.5-vl-7b-instruct-hf',
        path='Qwen/Qwen2.5-VL-7B-Instruct',
        tokenizer_path='Qwen/Qwen2.5-VL-7B-Instruct',
        generation_kwargs=dict(temperature=0.5, top_k=10, top_p=0.95, do_sample=True),
        max_out_len=100,
        batch_size=1,
        max_seq_len=32768,
    )
]
