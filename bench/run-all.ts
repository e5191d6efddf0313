/**
 * `npm run bench`: every benchmark, one JSON report. Numbers go into BENCHMARKS.md with the
 * command that made them. Ratios within one run matter more than absolutes on a shared machine.
 */
import os from 'node:os';
import { benchIngest } from './ingest.bench.ts';
import { benchItlAccuracy } from './itl-accuracy.bench.ts';
import { engineConfigFromEnv } from '../electron/engine/engine-config.ts';
import { configureEngine } from '../electron/engine/io/io-engine.ts';

// An entry point: the engine runs as the CLI's does (the environment's settings, the priority step).
configureEngine(engineConfigFromEnv(process.env));
import { errorMessage } from '../shared/result.ts';

const only = process.argv[2];
const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
};
if (!only || only === 'ingest') report.ingest = benchIngest();
if (!only || only === 'itl') report.itlAccuracy256x20ms = await benchItlAccuracy(256, 20, 100);
if (!only || only === 'metrics') {
  try {
    const m = (await import('./metrics-parse.bench.ts')) as { benchMetricsParse?: () => unknown };
    if (m.benchMetricsParse) report.metricsParse = m.benchMetricsParse();
  } catch (e) {
    report.metricsParse = `not available: ${errorMessage(e)}`;
  }
}
if (!only || only === 'runs') {
  const { benchRunSummary } = await import('./run-summary.bench.ts');
  report.runSummary10kx256 = benchRunSummary(10_000, 256);
}
if (!only || only === 'intervals') {
  // `npm run bench -- intervals [requests] [gaps]`: bootstrap intervals of a two-run comparison.
  const { benchIntervals } = await import('./intervals.bench.ts');
  report.intervals = [100, 10].map((g) =>
    benchIntervals(only ? Number(process.argv[3]) || 10_000 : 10_000, g),
  );
}
if (!only || only === 'import') {
  // `npm run bench -- import [MB]`: peak memory of importing a large vLLM detailed result.
  const { benchImport } = await import('./import.bench.ts');
  report.import = await benchImport(only ? Number(process.argv[3]) || 200 : 200);
}
if (!only || only === 'accuracy') {
  // Reference server + baseline client + engine client, each its own process (tables on stderr).
  // Options after the name: `npm run bench -- accuracy --streams 16,256 --repeats 1 --tokens 64`.
  const { benchAccuracy, accuracyOptionsFromArgs } = await import('./accuracy.bench.ts');
  report.accuracy = await benchAccuracy(accuracyOptionsFromArgs(only ? process.argv.slice(3) : []));
}
if (!only || only === 'burst') {
  // The opening burst: 256 and 1,024 requests started at once, 5 repeats, each against the plain
  // client in the same run (the accuracy bench's lockstep server; options after the name as there).
  const { benchAccuracy, accuracyOptionsFromArgs } = await import('./accuracy.bench.ts');
  const extra = only ? process.argv.slice(3) : [];
  report.burst = await benchAccuracy(
    accuracyOptionsFromArgs(['--streams', '256,1024', '--repeats', '5', ...extra]),
  );
}
if (!only || only === 'memory') {
  // `npm run bench -- memory [requests] [tokens]`: peak RSS of the built CLI over 1.02 M chunks.
  const { benchMemory } = await import('./memory.bench.ts');
  report.memory1M = await benchMemory(Number(process.argv[3]) || 4000, Number(process.argv[4]) || 256);
}
if (!only || only === 'prompts') {
  // `npm run bench -- prompts [requests] [rate] [repeats]`: schedule lag with prefix groups and
  // cache busting against plain synthetic prompts, 10,000 requests each.
  const { benchPromptSchedule } = await import('./prompt-schedule.bench.ts');
  report.promptSchedule = await benchPromptSchedule(
    Number(process.argv[3]) || 10_000,
    Number(process.argv[4]) || 500,
    Number(process.argv[5]) || 3,
  );
}
if (only === 'vllm-client') {
  // Only on request (needs vLLM's request function and Python): `npm run bench -- vllm-client
  // --request-func PATH/vllm/benchmarks/lib/endpoint_request_func.py [--requests 200] [--pairs 2]`.
  const { benchVllmClient } = await import('./vllm-client.bench.ts');
  report.vllmClient = await benchVllmClient(process.argv.slice(3));
}
if (!only || only === 'cli') {
  // `npm run bench -- cli [rounds]`: start-up of the built CLI beside `node -e 0`.
  const { benchCliStartup } = await import('./cli-startup.bench.ts');
  report.cliStartup = benchCliStartup(only ? Number(process.argv[3]) || 30 : 30);
}
if (!only || only === 'dashboard') {
  // Chromium + the built renderer: reported as not available where either is missing.
  try {
    const { benchRunDashboard } = await import('./run-dashboard.bench.ts');
    report.runDashboard256 = await benchRunDashboard(256);
  } catch (e) {
    report.runDashboard256 = `not available: ${errorMessage(e)}`;
  }
}
console.log(JSON.stringify(report, null, 2));
