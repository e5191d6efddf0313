/** A load run (`tokenscope run [WORKLOAD]`). */
import { Option, type Command } from 'commander';
import { DIALECT_IDS } from '../../../shared/dialects.ts';
import { collect, dialect, int, num } from '../args.ts';
import type { RunCliOptions } from '../run-flags.ts';
import { addImageOptions } from '../image-flags.ts';
import { addToolOptions } from '../tool-flags.ts';
import { collectMetricsEndpoint, collectUrl } from '../url-arg.ts';
import { addPoolingOptions } from './pooling.ts';
/** Multi-turn sessions (workload `sessions`; docs/load.md "Multi-turn sessions"). */
function addSessionOptions(cmd: Command): Command {
  return cmd
    .option(
      '--turns <n>',
      'multi-turn sessions: turns per conversation, N or MIN-MAX; then -n counts conversations, -c conversations in flight, --rate conversations per second',
    )
    .option(
      '--think-time <ms>',
      'multi-turn sessions: pause after an answer before the next turn: MS, MIN-MAX (uniform) or exp:MEAN (default 0)',
    )
    .option(
      '--first-input-len <n>',
      "multi-turn sessions: the first user message's tokens, N or MIN-MAX (later turns: --input-len)",
    )
    .option(
      '--mix <name[=weight]>',
      'a model mix: send each request to one of these model names (models or LoRA adapters), drawn by weight from the seed (repeatable; default weight 1); the summary breaks numbers down by model',
      collect,
    );
}

/** Correlation with the server's own traces (docs/tracing.md). */
function addTracingOptions(cmd: Command): Command {
  return cmd
    .option(
      '--no-trace-headers',
      'send no traceparent / x-request-id with the requests (default: a fresh W3C trace per request)',
    )
    .option(
      '--otlp-listen <port>',
      "receive the server's OTLP/HTTP traces on this port (POST /v1/traces; point vLLM's --otlp-traces-endpoint here) and join its spans to the requests: server queue, prefill, decode per request",
      int('--otlp-listen'),
    )
    .option('--otlp-host <host>', 'address the trace receiver binds (default 127.0.0.1)');
}

const METRICS_ENDPOINT_HELP =
  "a disaggregated deployment's other /metrics with its role (prefill, decode, router, server), repeatable: each role's queues and KV-transfer time in the summary";

export function addRunCommand(program: Command): void {
  const run = program
    .command('run')
    .description(
      'A load run, as `vllm bench serve`: workload file and/or flags; writes a run file, prints the summary.',
    )
    .argument('[workload]', 'workload JSON file (flags override its fields)')
    .option(
      '--target <url>',
      'server base URL (the dialect picks the path) or a full endpoint URL; repeat it (up to 4) to run the same workload on each in turn and compare them',
      collectUrl,
    )
    .option(
      '--out <file>',
      "run file to write (default: the app's runs folder, $TOKENSCOPE_HOME/runs, ~/.config/tokenscope/runs on Linux); with several targets, FILE.1.jsonl, FILE.2.jsonl…",
    )
    .option('-m, --model <name>', 'model name (default: the first model the server lists)')
    .addOption(
      new Option('-d, --dialect <dialect>', `wire format: ${DIALECT_IDS.join(', ')}`).argParser(dialect),
    )
    .option(
      '-n, --requests <n>',
      'number of measured requests (default 100 when no --duration; with --trace, the whole trace)',
      int('--requests'),
    )
    .option(
      '-c, --concurrency <n>',
      'max requests in flight (client-side queue beyond it)',
      int('--concurrency'),
    )
    .option('-r, --rate <r>', 'requests per second, or inf (default inf: all at once)')
    .option('--burstiness <b>', 'gamma shape of arrivals: 1 = Poisson, < 1 burstier', num('--burstiness'))
    .option('--input-len <n>', 'synthetic prompt tokens: N or MIN-MAX (uniform)')
    .option(
      '--output-len <n>',
      'output tokens: N or MIN-MAX (uniform); forced with ignore_eos for synthetic prompts',
    )
    .option('--seed <n>', 'seed: same seed, same prompts and schedule', int('--seed'))
    .option('--duration <s>', 'stop issuing requests after this many seconds', num('--duration'))
    .option(
      '--warmup <n>',
      'warm-up requests before the measured run (excluded from results)',
      int('--warmup'),
    )
    .option(
      '--no-test-request',
      'skip the test request sent before the run (default: one request first; the run stops with its error if it fails)',
    )
    .option('--slo-ttft <ms>', 'goodput SLO on TTFT (ms)', num('--slo-ttft'))
    .option('--slo-tpot <ms>', 'goodput SLO on TPOT (ms)', num('--slo-tpot'))
    .option('--slo-e2el <ms>', 'goodput SLO on end-to-end latency (ms)', num('--slo-e2el'))
    .option(
      '-H, --header <k:v>',
      'extra HTTP header (repeatable; values are not written to the run file)',
      collect,
    )
    .option(
      '--api-key <key>',
      'API key sent as a Bearer token, x-api-key for anthropic-messages (or set TOKENSCOPE_API_KEY); never written. With several --target: once for all, or once per target in the same order',
      collect,
    )
    .option('--name <name>', 'name of the run')
    .option(
      '--continuous-usage',
      'vLLM: ask for exact tokens per event (stream_options.continuous_usage_stats)',
    )
    .option('--save-text', 'keep every response text in the run file')
    .option(
      '--connection <mode>',
      'keep-alive: pooled connections, one the server closed retried once on a new one (default); close: a new connection per request',
    )
    .option(
      '--no-server-metrics',
      "do not watch the server's /metrics during the run (default: watched, summed up in the summary)",
    )
    .option(
      '--metrics-url <url>',
      "the server's metrics URL when not <target>/metrics (Triton: :8002/metrics)",
    )
    .option('--telemetry-url <url>', 'dcgm-exporter beside the server: J/output token', collectUrl)
    .option('--metrics-endpoint <role=url>', METRICS_ENDPOINT_HELP, collectMetricsEndpoint)
    .option('--timeout <ms>', 'whole-request timeout in ms (default 300000)', int('--timeout'))
    .option(
      '--idle-timeout <ms>',
      'fail a request when no byte arrives for this long (ms; default 60000, 0 = never)',
      int('--idle-timeout'),
    )
    .option('--insecure', 'skip TLS certificate verification')
    .option(
      '--repeat <n>',
      'run the workload N times on each target (FILE.r1.jsonl, FILE.r2.jsonl…), then show the run-to-run spread and the repeats pooled (compared pooled across targets)',
      int('--repeat'),
    );
  addToolOptions(
    addPoolingOptions(
      addImageOptions(
        addTracingOptions(addSessionOptions(addTraceOptions(addCacheOptions(addShardOptions(run))))),
      ),
    ),
  )
    .option('-q, --quiet', 'no progress output')
    .option('--json', "print the summary as one JSON object (vLLM key names plus Tokenscope's own)")
    .action(
      async (
        workload: string | undefined,
        o: Omit<RunCliOptions, 'target' | 'apiKey'> & { target?: string[]; apiKey?: string[] },
      ) => {
        const { target, apiKey, ...rest } = o;
        const { runRunTargets } = await import('../run.ts');
        process.exitCode = await runRunTargets(workload, target ?? [], rest, apiKey ?? []);
      },
    );
}

/** Shards of one schedule on several machines (docs/load.md "Load from many machines"). */
function addShardOptions(cmd: Command): Command {
  return cmd
    .option(
      '--shard <i/n>',
      "run shard I of N (0-based, e.g. 0/4) of the workload: the requests whose index mod N is I, at the whole schedule's times; needs --start-at; concurrency limits apply per shard; join the files with tokenscope merge",
    )
    .option(
      '--start-at <time>',
      "start the measured part at this instant of the target's clock (its HTTP Date; epoch ms or ISO-8601 with a zone, e.g. 2026-03-01T12:00:00Z); the same for every shard",
    )
    .option(
      '--clock-url <url>',
      "whose HTTP Date is the reference clock for --start-at (default: the target's origin; give one that stamps Date per answer when the target caches it, e.g. uvicorn)",
    );
}

/** The prefix cache: shared prefixes, cache busting, a reset first (docs/load.md "Prefix caching"). */
function addCacheOptions(cmd: Command): Command {
  return cmd
    .option(
      '--prefix-groups <g>',
      'shared prefixes: each request starts with one of G prefixes (with --prefix-len), then its --input-len suffix; the expected prefix-cache hit ratio is printed',
      int('--prefix-groups'),
    )
    .option(
      '--prefix-len <n>',
      'shared prefixes: tokens of each prefix (with --prefix-groups)',
      int('--prefix-len'),
    )
    .option(
      '--cache-bust',
      'a unique random prefix per request (not from the seed): no request shares a cached block with another, in this run or an earlier one',
    )
    .option(
      '--reset-prefix-cache',
      "empty the server's prefix cache before the run and each repeat (vLLM: POST /reset_prefix_cache, needs VLLM_SERVER_DEV_MODE=1; SGLang: /flush_cache); recorded in the run file",
    );
}

/** Replaying a trace instead of synthetic arrivals (shared/runs/workload/trace-parse.ts, runs/trace-prompts.ts). */
function addTraceOptions(cmd: Command): Command {
  return cmd
    .option(
      '--trace <file>',
      'replay a timestamped trace instead of synthetic arrivals: Mooncake JSONL (timestamp ms, input_length, output_length, hash_ids) or BurstGPT CSV; -n limits it',
    )
    .option('--trace-format <f>', 'auto (default), mooncake or burstgpt')
    .option(
      '--speedup <x>',
      'replay the trace X times faster (its gaps divided by X; default 1)',
      num('--speedup'),
    )
    .option(
      '--window <start-end>',
      "replay only the trace's requests from START to END seconds of trace time (e.g. 3600-7200, 60-)",
    )
    .option(
      '--block-tokens <n>',
      'prompt tokens per hash id (default 512, as in Mooncake)',
      int('--block-tokens'),
    )
    .option(
      '--max-lag <ms>',
      'flag the replay when its schedule lag p99 (actual − planned send) exceeds this (default 10)',
      num('--max-lag'),
    );
}
