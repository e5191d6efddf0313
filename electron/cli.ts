/**
 * `tokenscope` — the headless entry point: probe, sim (and later run, metrics, serve).
 * Every command is a thin shell over the same core the app uses.
 */
import fs from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DIALECT_IDS, isDialectId, type DialectId } from '../shared/dialects.ts';
import { runProbe, type ProbeCliOptions } from './cli/probe.ts';
import { runSimCommand, type SimCliOptions } from './cli/sim.ts';
import { runServe, type ServeCliOptions } from './cli/serve.ts';
import { runFleet, type FleetCliOptions } from './cli/fleet.ts';
import { runRunTargets, type RunCliOptions } from './cli/run.ts';
import { runMetrics, type MetricsCliOptions } from './cli/metrics.ts';
import { runCompare, type CompareCliOptions } from './cli/compare.ts';
import { DEFINITION_IDS } from '../shared/runs/definitions.ts';
import { configureIo, MAX_IO_THREADS } from './engine/io/io-engine.ts';
import { collectUrl, normalizeServerUrl } from './cli/url-arg.ts';
import { installOutputRedaction, secretsOf } from './cli/redact-output.ts';

function int(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0)
      throw new InvalidArgumentError(`${name} must be a non-negative integer.`);
    return n;
  };
}
function num(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number.`);
    return n;
  };
}
function dialect(v: string): DialectId {
  if (!isDialectId(v)) throw new InvalidArgumentError(`unknown dialect; one of: ${DIALECT_IDS.join(', ')}`);
  return v;
}
function ioThreads(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > MAX_IO_THREADS)
    throw new InvalidArgumentError(`--io-threads must be an integer from 0 to ${MAX_IO_THREADS}.`);
  return n;
}
/** A repeatable option's values in order (no default: `--help` would print "(default: [])"). */
function collect(v: string, prev: string[] = []): string[] {
  return [...prev, v];
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function buildProgram(): Command {
  const program = new Command('tokenscope')
    .description('See what your LLM inference servers really do: per-event stream timing, TTFT, ITL, E2E.')
    .version(packageVersion(), '-V, --version', 'print the version')
    // Usage errors exit 2 (the README's promise), not commander's 1; see main(). Set before any
    // .command() so every subcommand inherits it.
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .option(
      '--io-threads <n>',
      `stream-I/O threads that own the sockets and stamp every read (0–${MAX_IO_THREADS}; 0: in the main thread; default: cores − 1, at least 1)`,
      ioThreads,
    )
    .hook('preAction', (cmd) => {
      const n = cmd.opts<{ ioThreads?: number }>().ioThreads;
      if (n !== undefined) configureIo(n);
    });

  program
    .command('probe')
    .description(
      'Send one streaming request, print every event as it arrives, then a summary; with two URLs, the same request to both at once, then side by side.',
    )
    .argument(
      '<url>',
      'server base URL (the dialect picks the path) or a full endpoint URL; http:// is assumed when there is no scheme',
      (v: string) => normalizeServerUrl(v),
    )
    .argument(
      '[url2]',
      'a second server: the same request to both at the same moment, compared',
      (v: string) => normalizeServerUrl(v),
    )
    .option('-m, --model <name>', 'model name (default: the first model the server lists)')
    .option('-p, --prompt <text>', 'prompt text', 'Explain in a few sentences why the sky is blue.')
    .option('--messages <json>', 'chat messages as a JSON array of {role, content} (chat dialects)')
    .addOption(
      new Option('-d, --dialect <dialect>', `wire format: ${DIALECT_IDS.join(', ')}`)
        .default('openai-chat')
        .argParser(dialect),
    )
    .option('-n, --max-tokens <n>', 'max tokens to generate', int('--max-tokens'), 128)
    .option('-t, --temperature <x>', 'sampling temperature', num('--temperature'))
    .option('--ignore-eos', 'ask the server to ignore EOS (vLLM, llama.cpp)')
    .option('--min-tokens <n>', 'minimum tokens (vLLM)', int('--min-tokens'))
    .option('--extra-body <json>', 'JSON merged last into the request body')
    .option('-H, --header <k:v>', 'extra HTTP header (repeatable)', collect)
    .option('--api-key <key>', 'API key sent as Bearer token (or set TOKENSCOPE_API_KEY)')
    .option('--no-include-usage', 'do not inject stream_options.include_usage (OpenAI dialects)')
    .option(
      '--continuous-usage',
      'inject stream_options.continuous_usage_stats (vLLM: exact tokens per event)',
    )
    .option('--timeout <ms>', 'whole-request timeout in ms', int('--timeout'), 300_000)
    .option(
      '--idle-timeout <ms>',
      'fail when no byte arrives for this long (ms; default 60000, 0 = never)',
      int('--idle-timeout'),
    )
    .option('--insecure', 'skip TLS certificate verification')
    .option('--raw', 'print the raw data of each event')
    .option('-q, --quiet', 'no live event lines, summary only')
    .option('--json', 'print one JSON object (summary, times, text, error) and nothing else')
    .action(async (url: string, url2: string | undefined, o: ProbeCliOptions) => {
      process.exitCode = await runProbe(url, o, url2);
    });

  program
    .command('sim')
    .description(
      'Run the built-in simulator: vLLM-compatible SSE + /metrics, TGI, llama.cpp and Ollama dialects, faults.',
    )
    .option('--port <n>', 'port (0 = any free port)', int('--port'), 8000)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--model <name>', 'model name it serves', 'tokenscope-sim')
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
    .option('--quiet', 'do not log requests')
    .action(async (o: SimCliOptions) => {
      process.exitCode = await runSimCommand(o);
    });

  program
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
      'number of measured requests (default 100 when no --duration)',
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
      'API key sent as Bearer token (or set TOKENSCOPE_API_KEY); never written. With several --target: once for all, or once per target in the same order',
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
    )
    .option('-q, --quiet', 'no progress output')
    .option('--json', "print the summary as one JSON object (vLLM key names plus Tokenscope's own)")
    .action(
      async (
        workload: string | undefined,
        o: Omit<RunCliOptions, 'target' | 'apiKey'> & { target?: string[]; apiKey?: string[] },
      ) => {
        const { target, apiKey, ...rest } = o;
        process.exitCode = await runRunTargets(workload, target ?? [], rest, apiKey ?? []);
      },
    );

  program
    .command('compare')
    .description(
      'Runs side by side: Tokenscope run files and/or vLLM / SGLang result files, each against the first.',
    )
    .argument(
      '<files...>',
      '2 to 4 runs: run files (.jsonl), vLLM --save-result / SGLang result files (every result of an --append-result file, or FILE#N for the Nth), repeats pooled as A.r1.jsonl+A.r2.jsonl',
    )
    .option(
      '--json',
      'one JSON object: runs, rows (values, change, 95 % interval, verdict), failure rates, workload differences',
    )
    .option('--markdown', 'a Markdown table to paste into an issue or a doc')
    .option('--csv', 'CSV for a spreadsheet: numbers with their unit column, change, interval, verdicts')
    .option(
      '--max-regression <pct>',
      'exit 1 when a metric is worse than the first run by more than this percentage with 95 % confidence (a CI gate)',
      num('--max-regression'),
    )
    .option(
      '--max-failure-increase <pp>',
      'gate: exit 1 when the failure rate rose by more than this many percentage points with 95 % confidence (default 0 with --max-regression: any clear increase)',
      num('--max-failure-increase'),
    )
    .option(
      '--replicates <n>',
      'bootstrap replicates for the 95 % intervals (default 1000; 0 = no intervals, verdicts from the values alone)',
      int('--replicates'),
    )
    .addOption(
      new Option(
        '--definitions <preset>',
        "whose per-request rules to compare under: Tokenscope runs are re-derived from their events (default: an imported result's, e.g. vllm, else tokenscope)",
      ).choices([...DEFINITION_IDS]),
    )
    .action(async (files: string[], o: CompareCliOptions) => {
      process.exitCode = await runCompare(files, o);
    });

  program
    .command('serve')
    .description('Web mode: serve the app UI to a browser, bound to loopback, guarded by a random token.')
    .option('--port <n>', 'port (0 = any free port)', int('--port'), 5173)
    .option(
      '--host <host>',
      'address to bind (keep loopback; use an SSH tunnel for remote boxes)',
      '127.0.0.1',
    )
    .option(
      '--allow-host <name>',
      'a host name the page may be opened by besides localhost and IP addresses (repeatable; a guard against DNS rebinding)',
      collect,
    )
    .option('--no-sim', 'do not start the built-in simulator')
    .option('--rebuild', 'rebuild the UI before serving')
    .action(async (o: ServeCliOptions) => {
      process.exitCode = await runServe(o);
    });

  program
    .command('metrics')
    .description(
      "Scrape a server's Prometheus /metrics: detected server, running/waiting, KV cache, token rates, server TTFT/ITL/e2e quantiles.",
    )
    .argument('<url>', 'server base URL (/metrics is derived) or the metrics URL itself', (v: string) =>
      normalizeServerUrl(v),
    )
    .option('--json', 'one JSON object per scrape (profile, concepts, rates, families, series, errors)')
    .option(
      '-w, --watch',
      'scrape every --interval until Ctrl-C; rates and window quantiles from the second scrape on',
    )
    .option('--interval <ms>', 'scrape interval in ms (with --watch)', int('--interval'), 1000)
    .option('-H, --header <k:v>', 'extra HTTP header (repeatable)', collect)
    .option('--api-key <key>', 'API key sent as Bearer token (or set TOKENSCOPE_API_KEY)')
    .option('-m, --model <name>', "only this model's series (servers that label them)")
    .option(
      '--timeout <ms>',
      'per-scrape timeout in ms (default 10 s; with --watch the interval, 1–10 s)',
      int('--timeout'),
    )
    .option('--insecure', 'skip TLS certificate verification')
    .option(
      '--prometheus',
      'URL is a Prometheus server: read the concepts from its HTTP API for --selector (a range; with --watch, live)',
    )
    .option(
      '--selector <sel>',
      'with --prometheus: PromQL label selector of the servers, e.g. \'{job="vllm"}\'',
    )
    .option('--range <dur>', 'with --prometheus: how far back (5m, 1h, …)', '5m')
    .option('--step <dur>', 'with --prometheus: resolution of the series', '15s')
    .option('--window <dur>', 'with --prometheus: rate()/histogram window', '1m')
    .option(
      '--profile <id>',
      'with --prometheus: server profile instead of detecting it (vllm-v1, vllm-v0, sglang, tgi, llamacpp, triton)',
    )
    .action(async (url: string, o: MetricsCliOptions & FleetCliOptions & { prometheus?: boolean }) => {
      // --prometheus --watch: live snapshots (one per Prometheus scrape) in the direct-scrape report.
      if (o.prometheus && o.watch)
        process.exitCode = await runMetrics(url, { ...o, prometheusSelector: o.selector ?? '' });
      else process.exitCode = o.prometheus ? await runFleet(url, o) : await runMetrics(url, o);
    });

  return program;
}

/**
 * Exit codes: 0 ok, 1 a request or run failed, 2 bad usage. Never a stack trace for user input:
 * an unexpected error prints one line (TOKENSCOPE_DEBUG=1 prints the trace).
 */
export async function main(argv: string[]): Promise<void> {
  // Nothing printed by any command carries a secret in clear (cli/redact-output.ts).
  installOutputRedaction(secretsOf(argv));
  try {
    await buildProgram().parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander already printed the message (and the help); help and --version are not errors.
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.TOKENSCOPE_DEBUG && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
    process.exitCode = 1;
  }
}
