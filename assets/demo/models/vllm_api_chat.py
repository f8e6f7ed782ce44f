# An AISBench service model, after AISBench configs/models/vllm_api/vllm_api_general_chat.py:
# VLLMCustomAPIChat sends OpenAI chat messages; a prompt_mm turn is one user message of content parts
# (image_url, audio_url, text), as an OpenAI-compatible server (vLLM) receives it.
from ais_bench.benchmark.models import VLLMCustomAPIChat

models = [
    dict(
        attr="service",
        type=VLLMCustomAPIChat,
        abbr="vllm-api-chat",
        path="",
        model="",
        request_rate=0,
        retry=2,
        host_ip="localhost",
        host_port=8080,
        max_out_len=512,
        batch_size=1,
        generation_kwargs=dict(temperature=0.01),
    )
]
