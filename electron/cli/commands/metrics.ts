/** A server's metrics (`tokenscope metrics URL`). */
import type { Command } from 'commander';
import { collect, int } from '../args.ts';
import type { FleetCliOptions } from '../fleet.ts';
import type { MetricsCliOptions } from '../metrics.ts';
import { collectMetricsEndpoint, normalizeServerUrl } from '../url-arg.ts';
export function addMetricsCommand(program: Command): void {
  program
    .command('metrics')
    .description(
      "Scrape a server's Prometheus /metrics: detected server, running/waiting, KV cache, token rates, server TTFT/ITL/e2e quantiles.",
    )
    .argument(
      '[url]',
      'server base URL (/metrics is derived) or the metrics URL itself; optional with --metrics-endpoint',
      (v: string) => normalizeServerUrl(v),
    )
    .option(
      '--metrics-endpoint <role=url>',
      "a disaggregated deployment's /metrics with its role (prefill, decode, router, server), repeatable: each printed under its role, with its queues and KV-transfer time",
      collectMetricsEndpoint,
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
    .action(
      async (url: string | undefined, o: MetricsCliOptions & FleetCliOptions & { prometheus?: boolean }) => {
        const { runMetrics } = await import('../metrics.ts');
        // --prometheus --watch: live snapshots (one per Prometheus scrape) in the direct-scrape report.
        if (o.prometheus && o.watch)
          process.exitCode = await runMetrics(url, { ...o, prometheusSelector: o.selector ?? '' });
        else if (o.prometheus && url !== undefined)
          process.exitCode = await (await import('../fleet.ts')).runFleet(url, o);
        else process.exitCode = await runMetrics(url, o);
      },
    );
}
