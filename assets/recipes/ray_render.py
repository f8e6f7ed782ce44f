#!/usr/bin/env python3
"""Render a dataset's prompts with PromptLoom on Ray: one `promptloom render --shard I/N` per shard as a Ray Data
map_batches step, outputs joined in shard order, so the result is byte-identical to one `promptloom render` process.

    python ray_render.py --shards N --out prompts.jsonl [--promptloom PATH] -- RENDER-ARGS...

RENDER-ARGS are those of `promptloom render` (--config, --dataset, --model, --variant, --format, --media ...), without
--out or --shard. Every Ray worker must reach the same dataset and config paths (a shared filesystem) and have
PromptLoom installed (--promptloom, default: `promptloom` on PATH). Each shard's output travels back through Ray's
object store, so pick N so that one shard's prompts fit a worker's memory comfortably.
Needs: pip install "ray[data]" (ray, pandas, pyarrow). Exit code: 0 when every shard exited 0, else 1.
"""
import argparse
import os
import subprocess
import sys


def main() -> int:
    argv = sys.argv[1:]
    render_args = argv[argv.index('--') + 1:] if '--' in argv else []
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--shards', type=int, required=True, help='number of shards (Ray tasks)')
    ap.add_argument('--out', required=True, help='the JSONL file to write')
    ap.add_argument('--promptloom', default='promptloom', help='the promptloom command on the workers')
    ap.add_argument('--num-cpus', type=int, default=None, help='for a local Ray instance (ray.init)')
    a = ap.parse_args(argv[:argv.index('--')] if '--' in argv else argv)
    if any(x in ('--out', '--shard') for x in render_args):
        ap.error('give --out to this script, not to render; --shard is set per task')

    import ray  # imported late so --help works without Ray

    ray.init(num_cpus=a.num_cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    cmd = a.promptloom.split()
    n = a.shards

    def render_shard(batch):
        outs, codes, errs = [], [], []
        for shard in batch['shard']:
            r = subprocess.run([*cmd, 'render', *render_args, '--shard', f'{int(shard)}/{n}'], capture_output=True)
            outs.append(r.stdout)
            codes.append(r.returncode)
            errs.append(r.stderr.decode('utf-8', 'replace')[-2000:])
        return {'shard': batch['shard'], 'output': outs, 'code': codes, 'stderr': errs}

    ds = ray.data.from_items([{'shard': i} for i in range(n)], override_num_blocks=n)
    parts = sorted(ds.map_batches(render_shard, batch_size=1).take_all(), key=lambda r: int(r['shard']))
    tmp = f'{a.out}.tmp-{os.getpid()}'
    with open(tmp, 'wb') as f:
        for p in parts:
            f.write(p['output'])
    os.replace(tmp, a.out)
    failed = [p for p in parts if int(p['code']) != 0]
    for p in failed:
        sys.stderr.write(f"shard {int(p['shard'])}/{n} exited {int(p['code'])}: {p['stderr']}\n")
    sys.stderr.write(f'wrote {sum(len(p["output"]) for p in parts)} bytes from {n} shards to {a.out}\n')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
