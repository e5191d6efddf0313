/**
 * `tokenscope run [WORKLOAD] --target URL [--target URL…]` — a load run headless, as
 * `vllm bench serve` users expect (several targets: the same workload on each, then compared):
 * flags stand in for or override the workload file, a progress line on stderr (redrawn on a
 * TTY, plain lines every few seconds otherwise), the run file written as it goes, then the summary
 * table (or one JSON object with --json). The API key comes from --api-key or TOKENSCOPE_API_KEY
 * and is never written anywhere. Its flags are run-flags.ts; what it prints, run-output.ts.
 *
 * Exit codes: 0 ok · 1 every request failed (or the run file could not be written, or the server
 * could not be asked for its models) · 2 bad workload, target or flags · 130 cancelled (Ctrl-C).
 */
import { openSpanReceiver, type SpanReceiver } from '../runs/server-spans.ts';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { otherModelAnswered, otherModelText } from '../../shared/model-answer.ts';
import { parseWorkload, type Workload } from '../../shared/runs/workload/workload.ts';
import { defaultRunFileName } from '../runs/files/run-file.ts';
import { runsDir } from '../platform/paths.ts';
import { runWorkload, StartMissedError, TestRequestError, type RunResult } from '../runs/runner.ts';
import { planLine, planShard } from './run-shard.ts';
import { PrepareError, prepareRun } from '../runs/prepare-run.ts';
import type { PromptProvider } from '../runs/prompts/items.ts';
import type { RunTargetSpec } from '../runs/request-spec.ts';
import type { ScrapeTarget } from '../metrics/scraper.ts';
import { MAX_COMPARED } from '../../shared/runs/compare/compare.ts';
import { runCompare } from './compare.ts';
import { formatIssues, readWorkloadJson } from '../runs/files/workload-file.ts';
import { applyOverrides, flagLabel, parseHeaders, type Obj, type RunCliOptions } from './run-flags.ts';
import { printPooled, progressWriter, printRunResult } from './run-output.ts';
import { MAX_REPEATS } from '../../shared/runs-api.ts';
import { errorMessage } from '../../shared/result.ts';
import { cacheLines, expectedPrefixLine } from './prefix-cache-text.ts';

/** An error, as one JSON object with --json, else on stderr; its exit code. */
function failed(o: RunCliOptions, msg: string, code = 2): number {
  if (o.json) process.stdout.write(JSON.stringify({ error: msg }) + '\n');
  else process.stderr.write(`error: ${msg}\n`);
  return code;
}

/** `ab.jsonl`, 2 → `ab.2.jsonl` (one run file per target), `ab.jsonl`, 'r3' → `ab.r3.jsonl` (a repeat). @internal exported for its tests */
export function numberedFile(file: string, n: number | string): string {
  const ext = path.extname(file);
  return `${file.slice(0, file.length - ext.length)}.${n}${ext || '.jsonl'}`;
}

/**
 * `--target` given several times: the same workload (same seed: same prompts, same schedule) on
 * each server in turn, each summary as usual, then `tokenscope compare` of the runs. Stops at a
 * cancel (130) or a bad workload (2); otherwise the exit code is the worst of the runs'.
 */
export async function runRunTargets(
  workloadFile: string | undefined,
  targets: readonly string[],
  o: RunCliOptions,
  apiKeys: readonly string[] = o.apiKey === undefined ? [] : [o.apiKey],
): Promise<number> {
  const err = (msg: string): number => failed(o, msg);
  // One key for every target, or one per target in order (a hosted API beside a local server).
  if (apiKeys.length > 1 && apiKeys.length !== targets.length)
    return err(
      `--api-key given ${apiKeys.length} times for ${targets.length} targets: give it once, or once per --target`,
    );
  const keyOf = (i: number): string | undefined => (apiKeys.length > 1 ? apiKeys[i] : apiKeys[0]);
  const repeats = o.repeat ?? 1;
  if (!(Number.isInteger(repeats) && repeats >= 1 && repeats <= MAX_REPEATS))
    return err(`--repeat must be a whole number from 1 to ${MAX_REPEATS}`);
  if ((o.shard !== undefined || o.startAt !== undefined) && (targets.length > 1 || repeats > 1))
    return err(
      '--shard and --start-at run one workload on one target: not with several --target or --repeat',
    );
  if (targets.length <= 1 && repeats === 1)
    return runRunCommand(workloadFile, { ...o, target: targets[0], apiKey: keyOf(0), releaseIo: true });
  if (targets.length > MAX_COMPARED)
    return err(`--target at most ${MAX_COMPARED} times (they are compared side by side)`);
  if (targets.length > 1 && o.metricsUrl !== undefined)
    return err('--metrics-url names one server: give it with a single --target, or leave it out');
  if (targets.length > 1 && o.metricsEndpoint !== undefined)
    return err("--metrics-endpoint names one deployment's servers: give it with a single --target");
  if (targets.length > 1 && o.telemetryUrl !== undefined)
    return err("--telemetry-url names one server's GPUs: give it with a single --target");
  // Every target is checked before the first run starts: not a bad URL found after ten minutes.
  const bad = targets.find((u) => {
    try {
      return !/^https?:$/.test(new URL(u).protocol);
    } catch {
      return true;
    }
  });
  if (bad !== undefined) return err(`--target ${bad}: not an http(s) URL`);
  const groups: string[][] = [];
  let worst = 0;
  const list = targets.length > 0 ? targets : [undefined];
  for (const [i, url] of list.entries()) {
    const host = url === undefined ? null : new URL(url).host; // checked above
    const base = targets.length > 1 ? (o.name ? `${o.name} · ${host}` : host!) : (o.name ?? null);
    const files: string[] = [];
    const group = randomUUID();
    for (let k = 1; k <= repeats; k++) {
      if (!o.quiet && !o.json) {
        const what = [
          targets.length > 1 ? `run ${i + 1} of ${targets.length}: ${url}` : null,
          repeats > 1 ? `repeat ${k} of ${repeats}` : null,
        ].filter(Boolean);
        process.stderr.write(`${i || k > 1 ? '\n' : ''}${what.join(' · ')}\n`);
      }
      let out = o.out;
      if (out !== undefined && targets.length > 1) out = numberedFile(out, i + 1);
      if (out !== undefined && repeats > 1) out = numberedFile(out, `r${k}`);
      const name = repeats > 1 ? `${base ?? host ?? 'run'} · repeat ${k}/${repeats}` : base;
      const code = await runRunCommand(
        workloadFile,
        {
          ...o,
          // The process's last run lets its I/O threads go before its summary (RunOptions.releaseIo).
          releaseIo: i === list.length - 1 && k === repeats,
          target: url,
          apiKey: keyOf(i),
          out,
          ...(name !== null ? { name } : {}),
          ...(repeats > 1 ? { repeatOf: { group, index: k, of: repeats } } : {}),
        },
        (file) => files.push(file),
      );
      if (code === 130 || code === 2) return code;
      worst = Math.max(worst, code);
    }
    groups.push(files);
    if (repeats > 1 && files.length > 1) {
      const code = await printPooled(files, o);
      if (code !== 0) return Math.max(worst, code);
    }
  }
  if (targets.length <= 1) return worst;
  if (!o.json) process.stdout.write('\n');
  const c = await runCompare(
    groups.map((g) => g.join('+')),
    { json: o.json },
  );
  return Math.max(worst, c);
}

async function runRunCommand(
  workloadFile: string | undefined,
  o: RunCliOptions,
  onFile?: (file: string) => void,
): Promise<number> {
  const err = (msg: string, code = 2): number => failed(o, msg, code);
  const ready = await readyToRun(workloadFile, o);
  if ('problem' in ready) return err(ready.problem, ready.code);
  const { w, target, model, prompts } = ready;
  const plan = await planShard(o, { w, targetUrl: target.url, model, prompts });
  if (typeof plan === 'string') return err(plan);
  if (plan && !o.quiet) process.stderr.write(planLine(plan) + '\n');
  const runId = randomUUID();
  // Default: the app's runs folder, so the run shows up in the app's history.
  const out = o.out ?? path.join(runsDir(), defaultRunFileName(Date.now(), runId));

  const progress = progressWriter(o);
  const ac = new AbortController();
  const stopCancelling = cancelOnSigint(ac);
  if (!o.quiet)
    process.stderr.write(
      `target: ${target.url} (${target.dialect}, model ${model}) · prompts: ${prompts.description}\n`,
    );
  const spans = await spanReceiverOf(o);
  if (typeof spans === 'string') return err(spans);
  const expected = expectedPrefixLine(w);
  if (expected && !o.quiet) process.stderr.write(expected + '\n');
  let result: RunResult;
  try {
    result = await runWorkload({
      spans,
      // --json prints vLLM's keys under vLLM's rules: summed up as requests finish, lines not kept.
      ...(o.json ? { alsoUnder: 'vllm' as const } : {}),
      workload: w,
      releaseIo: o.releaseIo,
      target: runTargetOf(ready),
      prompts,
      runId,
      ...(o.repeatOf ? { repeat: o.repeatOf } : {}),
      ...(plan ? { shard: plan.shard, startAtLocalMs: plan.startAtLocalMs } : {}),
      serverMetrics: serverMetricsOf(ready, o),
      telemetryUrls: o.serverMetrics === false ? [] : (o.telemetryUrl ?? []),
      metricsEndpoints: o.serverMetrics === false ? [] : (o.metricsEndpoint ?? []),
      outFile: out,
      signal: ac.signal,
      onStarted: (header) => {
        // Named once it exists: a test request that fails leaves no file behind to point at.
        if (!o.quiet) process.stderr.write(`run file: ${out}\n`);
        // Said even with --quiet: a whole run against another model than asked is worth a line.
        const other = otherModelAnswered(model, header.testRequest?.responseModel);
        if (other !== null) process.stderr.write(`warning: ${otherModelText(model, other)}\n`);
        for (const line of cacheLines(header)) process.stderr.write(line + '\n');
        progress.onStarted(header);
      },
      onProgress: progress.onProgress,
    });
  } catch (e) {
    if (e instanceof StartMissedError) return err(e.message, 1);
    if (e instanceof TestRequestError)
      return err(
        `${e.message}\n(check the target, model, dialect and key; --no-test-request skips the test)`,
        1,
      );
    return err(`could not run: ${errorMessage(e)}`);
  } finally {
    stopCancelling();
    progress.end();
    await spans?.close();
  }
  if (result.path) onFile?.(result.path);
  return printRunResult(result, o);
}

/** `--otlp-listen PORT`: the receiver the server's spans come to (docs/tracing.md), or why not. */
async function spanReceiverOf(o: RunCliOptions): Promise<SpanReceiver | null | string> {
  if (o.otlpListen === undefined) return null;
  const r = await openSpanReceiver(o.otlpListen, o.otlpHost);
  if (!r.ok) return r.error.message;
  if (!o.quiet) process.stderr.write(`traces: receiving OTLP at ${r.value.url}\n`);
  return r.value;
}

/** A run ready to go: its workload and target, the key and headers it sends, its model and prompts. */
export interface ReadyRun {
  w: Workload;
  target: NonNullable<Workload['target']>;
  apiKey: string | undefined;
  /** The workload's headers with the --header ones over them. */
  headers: Record<string, string>;
  model: string;
  prompts: PromptProvider;
}

/** The target as the runner takes it: where, which dialect and model, with the key and headers. */
export function runTargetOf(r: ReadyRun): RunTargetSpec {
  const { url, dialect, insecureTls } = r.target;
  return { url, dialect, model: r.model, headers: r.headers, apiKey: r.apiKey, insecureTls };
}

/**
 * The server's own /metrics through the run (summary.server), with the request's headers and key;
 * none with --no-server-metrics.
 */
export function serverMetricsOf(
  r: ReadyRun,
  o: Pick<RunCliOptions, 'serverMetrics' | 'metricsUrl'>,
): ScrapeTarget | null {
  if (o.serverMetrics === false) return null;
  const auth: Record<string, string> = r.apiKey ? { authorization: `Bearer ${r.apiKey}` } : {};
  return {
    url: r.target.url,
    metricsPath: o.metricsUrl,
    headers: { ...r.headers, ...auth },
    insecureTls: r.target.insecureTls,
  };
}

/**
 * Why a run cannot start, and its exit code: 2 a bad workload or flag, 1 the server could not be
 * asked (its model list failed: refused, timed out).
 */
export interface NotReady {
  problem: string;
  code: 1 | 2;
}

const bad = (problem: string): NotReady => ({ problem, code: 2 });

/** The workload file with the flags over it, checked, and its model and prompts found; or what is wrong. */
export async function readyToRun(
  workloadFile: string | undefined,
  o: RunCliOptions,
): Promise<ReadyRun | NotReady> {
  let raw: Obj = {};
  let baseDir = process.cwd();
  if (workloadFile) {
    const r = await readWorkloadJson(workloadFile);
    if (!r.ok) return bad(`bad workload:\n${formatIssues(r.error)}`);
    raw = r.value.raw;
    baseDir = r.value.baseDir;
  }
  const ov = applyOverrides(raw, o);
  if (ov.error) return bad(ov.error);
  const parsed = parseWorkload(ov.raw);
  if (!parsed.ok)
    return bad(
      `${workloadFile ? 'bad workload' : 'bad flags'}:\n${formatIssues(parsed.error, flagLabel(o))}`,
    );
  const w = parsed.value;
  const target = w.target;
  if (!target) return bad('no target: give --target URL or "target": {"url": …} in the workload');
  const flagHeaders = parseHeaders(o.header ?? []);
  if (typeof flagHeaders === 'string') return bad(flagHeaders);
  const apiKey = o.apiKey ?? process.env.TOKENSCOPE_API_KEY;
  const headers = { ...(target.headers ?? {}), ...flagHeaders };
  try {
    const { model, prompts } = await prepareRun(
      w,
      {
        url: target.url,
        dialect: target.dialect,
        model: target.model,
        apiKey,
        headers,
        insecureTls: target.insecureTls,
      },
      baseDir,
    );
    return { w, target, apiKey, headers, model, prompts };
  } catch (e) {
    if (e instanceof PrepareError) return { problem: e.message, code: e.unreachable ? 1 : 2 };
    throw e;
  }
}

/** Ctrl-C cancels the run (the run file keeps what finished); a second one quits at once. */
function cancelOnSigint(ac: AbortController): () => void {
  let sigints = 0;
  const onSig = (): void => {
    if (++sigints > 1) process.exit(130);
    process.stderr.write('\ncancelling… (Ctrl-C again to quit at once; the run file keeps what finished)\n');
    ac.abort();
  };
  process.on('SIGINT', onSig);
  return () => process.removeListener('SIGINT', onSig);
}
