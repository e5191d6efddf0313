/** A sweep (`tokenscope sweep [WORKLOAD]`): the workload at a list of loads, to the knee, or an SLO search. */
import { Option, type Command } from 'commander';
import { DIALECT_IDS } from '../../../shared/dialects.ts';
import { collect, dialect, int, num } from '../args.ts';
import type { SweepCliOptions } from '../sweep.ts';
import { addPoolingOptions } from './pooling.ts';

export function addSweepCommand(program: Command): void {
  addPoolingOptions(program.command('sweep'))
    .description(
      'The same workload at increasing loads, each step a run file, tied by one sweep file: curves, the knee, and (--slo) the highest load that meets your SLOs.',
    )
    .argument('[workload]', 'workload JSON file (flags override its fields)')
    .option('--target <url>', 'server base URL (the dialect picks the path) or a full endpoint URL')
    .option(
      '--out <file>',
      'sweep file to write (default: the runs folder, sweep-<time>.json); step run files beside it, FILE.step01.jsonl…',
    )
    .option('-m, --model <name>', 'model name (default: the first model the server lists)')
    .addOption(
      new Option('-d, --dialect <dialect>', `wire format: ${DIALECT_IDS.join(', ')}`).argParser(dialect),
    )
    .option(
      '-c, --concurrency <list>',
      'concurrencies to sweep, e.g. 1,2,4,8; with --rate or --slo: one number, the cap of every step',
    )
    .option(
      '-r, --rate <list|auto>',
      'rates to sweep (req/s, or inf), e.g. 1,2,4; auto: baseline, ceiling, then --steps rates between',
    )
    .option('--steps <k>', 'rates between baseline and ceiling with --rate auto (default 5)', int('--steps'))
    .option(
      '--refine <n>',
      'with --rate auto: most rates run after those, between the last good and the first over-saturated rate (default 4)',
      int('--refine'),
    )
    .option(
      '--slo <terms>',
      'SLO search: the highest load meeting every term, e.g. "p99_ttft_ms<=500,p99_tpot_ms<=50" (also error_rate<=0.01)',
    )
    .addOption(
      new Option('--search <kind>', 'what --slo searches').choices(['rate', 'concurrency']).default('rate'),
    )
    .option(
      '--max-steps <n>',
      'most runs a search makes, its ceiling step included (default 8)',
      int('--max-steps'),
    )
    .option(
      '--precision <p>',
      'a search stops when (failing − passing) / passing is at most this (default 0.05)',
      num('--precision'),
    )
    .option(
      '--max-runs <n>',
      'runs pooled at one load whose verdict is inside the noise (default 2)',
      int('--max-runs'),
    )
    .option('--no-stop-over-saturated', 'run every step to its end even when the server is over-saturated')
    .option(
      '--saturation-min <s>',
      'seconds into a step before over-saturation is judged (default 3)',
      num('--saturation-min'),
    )
    .option(
      '-n, --requests <n>',
      'measured requests per step (default 100 when no --duration)',
      int('--requests'),
    )
    .option('--duration <s>', 'seconds per step', num('--duration'))
    .option('--burstiness <b>', 'gamma shape of arrivals: 1 = Poisson, < 1 burstier', num('--burstiness'))
    .option('--input-len <n>', 'synthetic prompt tokens: N or MIN-MAX (uniform)')
    .option('--output-len <n>', 'output tokens: N or MIN-MAX (uniform)')
    .option('--seed <n>', 'seed: same seed, same prompts and schedule in every step', int('--seed'))
    .option('--warmup <n>', 'warm-up requests before each step (excluded)', int('--warmup'))
    .option('--no-test-request', 'skip the test request before the first step')
    .option('-H, --header <k:v>', 'extra HTTP header (repeatable; values are not written)', collect)
    .option('--api-key <key>', 'API key (or TOKENSCOPE_API_KEY); never written')
    .option('--name <name>', 'name of the sweep')
    .option('--connection <mode>', 'keep-alive (default) or close')
    .option('--no-server-metrics', "do not watch the server's /metrics during the steps")
    .option('--metrics-url <url>', "the server's metrics URL when not <target>/metrics")
    .option('--timeout <ms>', 'whole-request timeout in ms (default 300000)', int('--timeout'))
    .option(
      '--idle-timeout <ms>',
      'fail a request when no byte arrives for this long (ms)',
      int('--idle-timeout'),
    )
    .option('--insecure', 'skip TLS certificate verification')
    .option('-q, --quiet', 'no progress output')
    .option('--json', 'print the sweep file as one JSON object at the end')
    .action(async (workload: string | undefined, o: SweepCliOptions) => {
      const { runSweepCommand } = await import('../sweep.ts');
      process.exitCode = await runSweepCommand(workload, o);
    });
}
