"""
vLLM's own benchmark client on a Tokenscope workload, for `npm run bench -- vllm-client`.

It loads vLLM's request function from the file given (`vllm/benchmarks/lib/endpoint_request_func.py`
of a vLLM checkout or installed package; not part of this repository) and drives it the way
`vllm bench serve` does at rate "inf": one aiohttp session with vLLM's connector settings, the
initial single-prompt test, a semaphore of --max-concurrency, every request created at once, the
duration from the first task to the last. It writes what `vllm bench serve --save-result
--save-detailed` writes (per-request ttfts, itls, latencies, start_times, output_lens, errors…),
so `tokenscope compare` imports it like any vLLM result.

Needs Python 3.10+ with aiohttp, tqdm and regex (Debian: python3-aiohttp python3-tqdm python3-regex).
"""

import argparse
import asyncio
import contextlib
import importlib.util
import json
import time
from datetime import datetime

import aiohttp


def load_request_funcs(path):
    spec = importlib.util.spec_from_file_location("vllm_endpoint_request_func", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


async def run(args):
    m = load_request_funcs(args.request_func)
    with open(args.prompts) as f:
        items = json.load(f)
    api_url = args.url.rstrip("/") + "/v1/chat/completions"
    c = args.max_concurrency
    connector = aiohttp.TCPConnector(
        limit=c or 0,
        limit_per_host=c or 0,
        ttl_dns_cache=300,
        use_dns_cache=True,
        keepalive_timeout=60,
        enable_cleanup_closed=True,
        force_close=False,
        ssl=False,
    )
    session = aiohttp.ClientSession(
        connector=connector, trust_env=True, timeout=aiohttp.ClientTimeout(total=6 * 60 * 60)
    )

    def request_input(item):
        return m.RequestFuncInput(
            model=args.model,
            model_name=None,
            prompt=item["prompt"],
            api_url=api_url,
            prompt_len=item["prompt_len"],
            output_len=item["output_len"],
            ignore_eos=args.ignore_eos,
        )

    request_func = m.async_request_openai_chat_completions
    test = await request_func(request_func_input=request_input(items[0]), session=session)
    if not test.success:
        raise SystemExit(f"Initial test run failed: {test.error}")

    semaphore = asyncio.Semaphore(c) if c else contextlib.nullcontext()

    async def limited(inp, arrival):
        async with semaphore:
            out = await request_func(request_func_input=inp, session=session)
        out.client_queue_time = out.start_time - arrival
        return out

    start = time.perf_counter()
    tasks = []
    for item in items:
        tasks.append(asyncio.create_task(limited(request_input(item), time.perf_counter())))
    outputs = await asyncio.gather(*tasks)
    duration = time.perf_counter() - start
    await session.close()

    ok = [o for o in outputs if o.success]
    result = {
        "date": datetime.now().strftime("%Y%m%d-%H%M%S"),
        "endpoint_type": "openai-chat",
        "backend": "openai-chat",
        "label": args.label,
        "model_id": args.model,
        "tokenizer_id": args.model,
        "num_prompts": len(items),
        "request_rate": "inf",
        "burstiness": 1.0,
        "max_concurrency": c,
        "duration": duration,
        "completed": len(ok),
        "failed": len(outputs) - len(ok),
        "total_input_tokens": sum(o.prompt_len for o in ok),
        "total_output_tokens": sum(o.output_tokens or 0 for o in ok),
        "input_lens": [o.prompt_len for o in outputs],
        "output_lens": [(o.output_tokens or 0) if o.success else 0 for o in outputs],
        "ttfts": [o.ttft for o in outputs],
        "itls": [o.itl for o in outputs],
        "latencies": [o.latency for o in outputs],
        "start_times": [o.start_time for o in outputs],
        "queue_times": [o.client_queue_time for o in outputs],
        "generated_texts": ["" for _ in outputs],
        "errors": [o.error for o in outputs],
    }
    with open(args.out, "w") as f:
        json.dump(result, f)
    print(json.dumps({"completed": result["completed"], "failed": result["failed"], "duration": duration}))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--request-func", required=True, help="vLLM's endpoint_request_func.py")
    p.add_argument("--url", required=True, help="server base URL")
    p.add_argument("--model", required=True)
    p.add_argument("--prompts", required=True, help="JSON list of {prompt, prompt_len, output_len}")
    p.add_argument("--max-concurrency", type=int, default=None)
    p.add_argument("--ignore-eos", action="store_true")
    p.add_argument("--label", default="vllm-client")
    p.add_argument("--out", required=True)
    asyncio.run(run(p.parse_args()))


if __name__ == "__main__":
    main()
