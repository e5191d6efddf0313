/** Run the built-in simulator (`tokenscope sim`). */
import type { Command } from 'commander';
import { collect, int, num } from '../args.ts';
import type { SimCliOptions } from '../sim.ts';

/** Tool calls (electron/sim/tool-calls.ts). */
const TOOL_CALL_SHARE = [
  '--tool-call-share <p>',
  'of requests that offer function tools (tool_choice auto), the share answered with a tool call, 0–1 (required/named: all; none: none)',
  num('--tool-call-share'),
  0.8,
] as const;

export function addSimCommand(program: Command): void {
  const sim = program
    .command('sim')
    .description(
      'Run the built-in simulator: vLLM-compatible SSE + /metrics, TGI, llama.cpp and Ollama dialects, faults.',
    )
    .option('--port <n>', 'port (0 = any free port)', int('--port'), 8000)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option(
      '--allow-host <name>',
      'a host name requests may carry besides localhost and IP addresses, e.g. its container name (repeatable; a guard against DNS rebinding)',
      collect,
    )
    .option('--model <name>', 'model name it serves', 'tokenscope-sim')
    .option(
      '--extra-model <name[=speedup]>',
      "also serve this model name (a model or a LoRA adapter, for a model mix) on an engine of its own at speedup × the first model's decode and prefill speed (repeatable; default speedup 1)",
      collect,
    )
    .option('--seed <n>', 'random seed (same seed, same requests: same output)', int('--seed'), 1)
    .option(
      '--max-num-seqs <n>',
      'max sequences in the running batch; more wait in the queue',
      int('--max-num-seqs'),
      64,
    )
    .option('--decode-step-ms <ms>', 'decode step time at batch size 1', num('--decode-step-ms'), 20)
    .option(
      '--decode-step-per-seq-ms <ms>',
      'added step time per running sequence',
      num('--decode-step-per-seq-ms'),
      0.05,
    )
    .option(
      '--prefill-ms-per-token <ms>',
      'prefill cost per prompt token',
      num('--prefill-ms-per-token'),
      0.02,
    )
    .option('--stream-interval <n>', 'tokens per streamed chunk', int('--stream-interval'), 1)
    .option('--jitter <x>', 'relative jitter of step time, 0..1', num('--jitter'), 0)
    .option('--max-tokens <n>', 'default max tokens when a request sets none', int('--max-tokens'), 128)
    .option(
      '--fault <spec>',
      'fault for every request (or a fraction of them with @rate, e.g. reset:20@0.1): http-400|http-404|http-429|http-500|http-503|error-midstream[:n]|reset[:n]|stall[:ms]|malformed-json[:n]|no-done|slow-first-byte[:ms]|close-after-stream[:ms]',
    )
    .option(
      '--fault-rate <x>',
      'probability (0..1) that --fault applies to a request',
      num('--fault-rate'),
      1,
    )
    .option('--ground-truth <file>', 'append the exact send time of every chunk to this JSONL file')
    .option('--replay <file>', 'serve this captured body (e.g. one of test-corpus/sse/*.sse) to every POST')
    .option('--replay-interval <ms>', 'gap between replayed events', num('--replay-interval'), 20)
    .option(
      '--close-after-stream',
      "behave like llama.cpp's server: advertise Keep-Alive (timeout=5, max=100) but close the connection after every streamed response, so a pooled client reusing it is reset",
    )
    .option(
      '--close-after-stream-ms <ms>',
      'with --close-after-stream: how long after the last byte the connection is closed',
      num('--close-after-stream-ms'),
      5,
    )
    .option(
      '--reasoning <n>',
      "reasoning mode: every request reasons for n tokens before its answer, in its dialect's reasoning field (per request: body field sim_reasoning_tokens)",
      int('--reasoning'),
      0,
    )
    .option(...TOOL_CALL_SHARE)
    .option(
      '--embedding-dim <n>',
      'length of the vectors /v1/embeddings answers with (default 384)',
      int('--embedding-dim'),
    )
    .option(
      '--no-prefix-caching',
      'turn off the prefix cache (default on, as vLLM: cached leading 16-token blocks of a prompt are not prefilled again)',
    )
    .option(
      '--no-prompt-tokens-details',
      'send prompt_tokens_details: null, as vLLM does without --enable-prompt-tokens-details (default: the cached part of each prompt in usage)',
    )
    .option(
      '--no-cache-endpoints',
      'serve no POST /reset_prefix_cache (vLLM without VLLM_SERVER_DEV_MODE=1) and no /flush_cache (SGLang)',
    )
    .option(
      '--gpus <n>',
      'GPUs of the synthetic dcgm-exporter at /gpu-metrics (0: none); their power and energy follow the batch',
      int('--gpus'),
      1,
    )
    .option('--no-gpu-energy-counter', 'its GPUs publish power only, no energy counter')
    .option('--quiet', 'do not log requests');
  addInsideOptions(sim).action(async (o: SimCliOptions) => {
    const { runSimCommand } = await import('../sim.ts');
    process.exitCode = await runSimCommand(o);
  });
}

/** What the simulator shows of its inside: spans, speculative decoding, disaggregated serving. */
function addInsideOptions(cmd: Command): Command {
  return cmd
    .option(
      '--otlp-endpoint <url>',
      "export a vLLM-shaped span per finished request (llm_request, vLLM's gen_ai.latency.* attributes) to this OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces",
    )
    .option('--otlp-protocol <p>', 'http/protobuf (default, as vLLM) or http/json')
    .option(
      '--spec-k <n>',
      "speculative mode: draft tokens verified per decode step (vLLM's num_speculative_tokens); each step streams 1 + the accepted run as one chunk, and /metrics carry vLLM's vllm:spec_decode_* counters",
      int('--spec-k'),
      0,
    )
    .option(
      '--spec-accept <p1,p2,…>',
      'with --spec-k: acceptance probability of each draft position given the ones before it were accepted, 0..1 (the last repeats; default 0.7)',
    )
    .option(
      '--disagg',
      "disaggregated mode: prefill and decode as two servers, each request's KV cache sent between them (--kv-transfer-ms) before it decodes; their metrics (SGLang prefill/decode names) at /metrics/prefill and /metrics/decode",
    )
    .option(
      '--kv-transfer-ms <ms>',
      'with --disagg: the KV transfer per request (default 50)',
      num('--kv-transfer-ms'),
    );
}
