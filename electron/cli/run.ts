/**
 * `tokenscope run [WORKLOAD] --target URL [--target URL…]` — a load run headless, as
 * `vllm bench serve` users expect (several targets: the same workload on each, then compared):
 * flags stand in for or override the workload file, a progress line on stderr (redrawn on a
 * TTY, plain lines every few seconds otherwise), the run file written as it goes, then the summary
 * table (or one JSON object with --json). The API key comes from --api-key or TOKENSCOPE_API_KEY
 * and is never written anywhere.
 *
 * Exit codes: 0 ok · 1 every request failed (or the run file could not be written) · 2 bad
 * workload, target or flags · 130 cancelled (Ctrl-C).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DialectId } from '../../shared/dialects.ts';
import { progressLine, testRequestLine } from '../../shared/runs/progress-text.ts';
import { summaryJson, summaryText } from '../../shared/runs/summary-text.ts';
import { parseWorkload } from '../../shared/runs/workload.ts';
import { defaultRunFileName } from '../runs/run-file.ts';
import { runsDir } from '../paths.ts';
import { runWorkload, TestRequestError } from '../runs/runner.ts';
import { PrepareError, prepareRun } from '../runs/prepare-run.ts';
import { MAX_COMPARED } from '../../shared/runs/compare.ts';
import { poolRuns, repeatSpread, spreadText } from '../../shared/runs/pooled.ts';
import type { RunRepeat } from '../../shared/runs/run-types.ts';
import { loadRun, runCompare, type LoadedRun } from './compare.ts';
import { formatIssues, readWorkloadJson } from '../runs/workload-file.ts';

export interface RunCliOptions {
  target?: string;
  out?: string;
  model?: string;
  dialect?: DialectId;
  requests?: number;
  concurrency?: number;
  rate?: string;
  burstiness?: number;
  inputLen?: string;
  outputLen?: string;
  seed?: number;
  duration?: number;
  warmup?: number;
  /** Commander's --no-test-request: false skips the test request. */
  testRequest?: boolean;
  sloTtft?: number;
  sloTpot?: number;
  sloE2el?: number;
  apiKey?: string;
  header?: string[];
  name?: string;
  continuousUsage?: boolean;
  saveText?: boolean;
  /** keep-alive (pooled, a closed reused connection retried once) or close (one per request). */
  connection?: string;
  /** Whole-request timeout (ms). */
  timeout?: number;
  /** No byte for this long fails a request (ms; 0 = never). */
  idleTimeout?: number;
  insecure?: boolean;
  quiet?: boolean;
  json?: boolean;
  /** Commander's --no-server-metrics: false turns the server-side watch off. */
  serverMetrics?: boolean;
  /** Where the server's metrics are when not at <base>/metrics. */
  metricsUrl?: string;
  /** Run the workload this many times on each target, then pool the repeats (default 1). */
  repeat?: number;
  /** Internal: which repeat this run is (written into the header). */
  repeatOf?: RunRepeat;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/** "128" → fixed, "100-200" → uniform. */
export function parseLen(v: string): unknown {
  const m = /^(\d+)(?:-(\d+))?$/.exec(v.trim());
  if (!m) return v; // let the schema report it
  return m[2] === undefined ? Number(m[1]) : { type: 'uniform', min: Number(m[1]), max: Number(m[2]) };
}

/** The workload file's JSON with the flags laid over it (validated afterwards, once). */
export function applyOverrides(raw: Obj, o: RunCliOptions): { raw: Obj; error?: string } {
  const w: Obj = { ...raw };
  const t = obj(w.target);
  if (o.target !== undefined || o.dialect !== undefined || o.model !== undefined || o.insecure)
    w.target = {
      ...t,
      ...(o.target !== undefined ? { url: o.target } : {}),
      ...(o.dialect ? { dialect: o.dialect } : {}),
      ...(o.model ? { model: o.model } : {}),
      ...(o.insecure ? { insecureTls: true } : {}),
    };
  if (o.requests !== undefined) w.requests = o.requests;
  if (o.duration !== undefined) w.durationS = o.duration;
  if (w.requests === undefined && w.durationS === undefined) w.requests = 100;
  if (o.concurrency !== undefined) w.maxConcurrency = o.concurrency;
  if (o.rate !== undefined) {
    const r = /^inf(inity)?$/i.test(o.rate.trim()) ? 'inf' : Number(o.rate);
    if (r !== 'inf' && !(Number.isFinite(r) && r > 0))
      return {
        raw: w,
        error: `--rate must be requests per second (a number above 0) or inf; got "${o.rate}"`,
      };
    w.rate = r;
  }
  if (o.burstiness !== undefined) {
    w.burstiness = o.burstiness;
    if (w.arrival !== 'constant') delete w.arrival; // 1 → Poisson, else gamma (vLLM)
  }
  if (o.seed !== undefined) w.seed = o.seed;
  if (o.warmup !== undefined) w.warmup = o.warmup;
  if (o.testRequest === false) w.testRequest = false;
  if (o.name !== undefined) w.name = o.name;
  if (o.continuousUsage) w.continuousUsage = true;
  if (o.saveText) w.saveText = true;
  if (o.connection !== undefined) w.connection = o.connection;
  if (o.timeout !== undefined) w.timeoutMs = o.timeout;
  if (o.idleTimeout !== undefined) w.idleTimeoutMs = o.idleTimeout;
  if (o.sloTtft !== undefined || o.sloTpot !== undefined || o.sloE2el !== undefined)
    w.slo = {
      ...obj(w.slo),
      ...(o.sloTtft !== undefined ? { ttftMs: o.sloTtft } : {}),
      ...(o.sloTpot !== undefined ? { tpotMs: o.sloTpot } : {}),
      ...(o.sloE2el !== undefined ? { e2elMs: o.sloE2el } : {}),
    };
  const p = obj(w.prompts);
  const type = p.type ?? 'synthetic';
  if (o.inputLen !== undefined || o.outputLen !== undefined) {
    if (type === 'synthetic') {
      w.prompts = {
        ...p,
        type,
        ...(o.inputLen !== undefined ? { inputLen: parseLen(o.inputLen) } : {}),
        ...(o.outputLen !== undefined ? { outputLen: parseLen(o.outputLen) } : {}),
      };
    } else {
      if (o.inputLen !== undefined)
        return {
          raw: w,
          error: `--input-len applies to synthetic prompts; this workload reads ${String(type)} prompts`,
        };
      w.prompts = { ...p, outputLen: type === 'sharegpt' ? Number(o.outputLen) : parseLen(o.outputLen!) };
    }
  }
  return { raw: w };
}

function parseHeaders(list: string[]): Record<string, string> | string {
  const h: Record<string, string> = {};
  for (const s of list) {
    const i = s.indexOf(':');
    if (i <= 0) return `--header must be "Name: value", got "${s}"`;
    h[s.slice(0, i).trim()] = s.slice(i + 1).trim();
  }
  return h;
}

export const MAX_REPEATS = 100;

/** `ab.jsonl`, 2 → `ab.2.jsonl` (one run file per target), `ab.jsonl`, 'r3' → `ab.r3.jsonl` (a repeat). */
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
  const err = (msg: string): number => {
    if (o.json) process.stdout.write(JSON.stringify({ error: msg }) + '\n');
    else process.stderr.write(`error: ${msg}\n`);
    return 2;
  };
  // One key for every target, or one per target in order (a hosted API beside a local server).
  if (apiKeys.length > 1 && apiKeys.length !== targets.length)
    return err(
      `--api-key given ${apiKeys.length} times for ${targets.length} targets: give it once, or once per --target`,
    );
  const keyOf = (i: number): string | undefined => (apiKeys.length > 1 ? apiKeys[i] : apiKeys[0]);
  const repeats = o.repeat ?? 1;
  if (!(Number.isInteger(repeats) && repeats >= 1 && repeats <= MAX_REPEATS))
    return err(`--repeat must be a whole number from 1 to ${MAX_REPEATS}`);
  if (targets.length <= 1 && repeats === 1)
    return runRunCommand(workloadFile, { ...o, target: targets[0], apiKey: keyOf(0) });
  if (targets.length > MAX_COMPARED)
    return err(`--target at most ${MAX_COMPARED} times (they are compared side by side)`);
  if (targets.length > 1 && o.metricsUrl !== undefined)
    return err('--metrics-url names one server: give it with a single --target, or leave it out');
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

/** After the repeats of one target: how much they differed, then the pooled summary. */
async function printPooled(files: readonly string[], o: RunCliOptions): Promise<number> {
  const runs = await Promise.all(files.map((f) => loadRun(f)));
  const bad = runs.find((r): r is string => typeof r === 'string');
  if (bad) {
    process.stderr.write(`error: ${bad}\n`);
    return 1;
  }
  const loaded = runs as LoadedRun[];
  const spread = repeatSpread(loaded.map((r) => r.summary));
  const pooled = poolRuns(
    loaded.map((r) => ({ header: r.header, summary: r.summary, outcomes: r.outcomes ?? [] })),
  );
  if (o.json) {
    process.stdout.write(
      JSON.stringify({
        pooled: summaryJson(pooled.summary, { run_files: files, repeats: files.length }),
        spread,
      }) + '\n',
    );
  } else {
    process.stdout.write(
      `\n${spreadText(spread)}\n` +
        `Pooled over ${files.length} repeats (compare them as one: tokenscope compare ${files.join('+')} …)\n` +
        summaryText(pooled.summary),
    );
  }
  return 0;
}

export async function runRunCommand(
  workloadFile: string | undefined,
  o: RunCliOptions,
  onFile?: (file: string) => void,
): Promise<number> {
  const err = (msg: string, code = 2): number => {
    if (o.json) process.stdout.write(JSON.stringify({ error: msg }) + '\n');
    else process.stderr.write(`error: ${msg}\n`);
    return code;
  };
  let raw: Obj = {};
  let baseDir = process.cwd();
  if (workloadFile) {
    const r = await readWorkloadJson(workloadFile);
    if (!r.ok) return err(`bad workload:\n${formatIssues(r.issues)}`);
    raw = r.raw;
    baseDir = r.baseDir;
  }
  const ov = applyOverrides(raw, o);
  if (ov.error) return err(ov.error);
  const parsed = parseWorkload(ov.raw);
  if (!parsed.ok) return err(`bad workload:\n${formatIssues(parsed.issues)}`);
  const w = parsed.workload;
  if (!w.target) return err('no target: give --target URL or "target": {"url": …} in the workload');
  const headers = parseHeaders(o.header ?? []);
  if (typeof headers === 'string') return err(headers);
  const apiKey = o.apiKey ?? process.env.TOKENSCOPE_API_KEY;
  const allHeaders = { ...(w.target.headers ?? {}), ...headers };
  let model: string;
  let prompts;
  try {
    ({ model, prompts } = await prepareRun(
      w,
      {
        url: w.target.url,
        dialect: w.target.dialect,
        model: w.target.model,
        apiKey,
        headers: allHeaders,
        insecureTls: w.target.insecureTls,
      },
      baseDir,
    ));
  } catch (e) {
    if (e instanceof PrepareError) return err(e.message);
    throw e;
  }
  const runId = randomUUID();
  // Default: the app's runs folder, so the run shows up in the app's history.
  const out = o.out ?? path.join(runsDir(), defaultRunFileName(Date.now(), runId));

  const tty = process.stderr.isTTY === true && !o.quiet;
  const plain = !tty && !o.quiet;
  let lastPlain = 0;
  const ac = new AbortController();
  let sigints = 0;
  const onSig = (): void => {
    if (++sigints > 1) process.exit(130);
    process.stderr.write('\ncancelling… (Ctrl-C again to quit at once; the run file keeps what finished)\n');
    ac.abort();
  };
  process.on('SIGINT', onSig);
  if (!o.quiet)
    process.stderr.write(
      `run file: ${out}\ntarget: ${w.target.url} (${w.target.dialect}, model ${model}) · prompts: ${prompts.description}\n`,
    );
  let result;
  try {
    result = await runWorkload({
      workload: w,
      target: {
        url: w.target.url,
        dialect: w.target.dialect,
        model,
        headers: allHeaders,
        apiKey,
        insecureTls: w.target.insecureTls,
      },
      prompts,
      runId,
      ...(o.repeatOf ? { repeat: o.repeatOf } : {}),
      // The server's own /metrics through the run (summary.server), with the request's headers and key.
      serverMetrics:
        o.serverMetrics === false
          ? null
          : {
              url: w.target.url,
              metricsPath: o.metricsUrl,
              headers: { ...allHeaders, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
              insecureTls: w.target.insecureTls,
            },
      outFile: out,
      signal: ac.signal,
      onStarted: (h) => {
        if (h.testRequest && !o.quiet) {
          if (tty) process.stderr.write('\r\x1b[2K');
          process.stderr.write(testRequestLine(h.testRequest) + '\n');
        }
      },
      onProgress: (p) => {
        if (tty) process.stderr.write(`\r\x1b[2K${progressLine(p)}`);
        else if (
          plain &&
          (performance.now() - lastPlain > 2000 || p.phase === 'done' || p.phase === 'cancelled')
        ) {
          lastPlain = performance.now();
          process.stderr.write(progressLine(p) + '\n');
        }
      },
    });
  } catch (e) {
    if (e instanceof TestRequestError)
      return err(
        `${e.message}\n(check the target, model, dialect and key; --no-test-request skips the test)`,
        1,
      );
    return err(`could not run: ${(e as Error).message}`);
  } finally {
    process.removeListener('SIGINT', onSig);
    if (tty) process.stderr.write('\n');
  }
  const s = result.summary;
  if (result.path) onFile?.(result.path);
  if (o.json)
    process.stdout.write(
      JSON.stringify(summaryJson(s, { run_file: result.path, run_id: result.header.runId })) + '\n',
    );
  else process.stdout.write(summaryText(s) + `Run file: ${result.path}\n`);
  if (result.fileError) process.stderr.write(`warning: ${result.fileError}\n`);
  if (s.selfCheck?.flagged && !o.quiet)
    process.stderr.write(`warning: client timing may be distorted: ${s.selfCheck.reasons.join('; ')}\n`);
  if (result.cancelled) return 130;
  if (s.vllm.completed === 0) {
    if (!o.json)
      process.stderr.write(
        `error: every request failed (${
          Object.entries(s.errors)
            .map(([k, n]) => `${k} ×${n}`)
            .join(', ') || 'none completed'
        })\n`,
      );
    return 1;
  }
  return result.fileError ? 1 : 0;
}
