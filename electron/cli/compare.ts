/**
 * `tokenscope compare A B [C D]`: runs side by side in the terminal — Tokenscope run files or
 * vLLM / SGLang result files, in any mix — with the same rows, baseline and verdicts as the app's
 * comparison (shared/runs/compare.ts), each change with its 95 % bootstrap interval
 * (shared/runs/bootstrap.ts). `--max-regression PCT` makes it a CI gate: exit 1 when a metric with
 * a direction is worse than the baseline by more than PCT percent *with confidence* (its whole
 * interval beyond PCT; a metric without an interval — throughputs, server metrics — by its value),
 * or when the failure rate rose clearly by more than `--max-failure-increase` percentage points
 * (default 0: any increase beyond noise).
 *
 * Exit codes: 0 ok · 1 a regression beyond --max-regression · 2 bad arguments or unreadable file.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  compareIntervals,
  compareRows,
  failureBanner,
  MAX_COMPARED,
  workloadDifferences,
  type CompareRow,
} from '../../shared/runs/compare.ts';
import {
  ciCell,
  compareCell,
  compareCsv,
  compareMarkdown,
  fmtChange,
  INTERVAL_NOTE,
  LETTERS,
  relCell,
  runLegend,
  UNRELIABLE_MARK,
  UNRELIABLE_NOTE,
} from '../../shared/runs/compare-export.ts';
import { isCancelledLine, outcomeOfLine } from '../../shared/runs/outcome.ts';
import { poolRuns } from '../../shared/runs/pooled.ts';
import type { DefinitionsId } from '../../shared/runs/definitions.ts';
import {
  comparisonDefinitions,
  clientsNote,
  definitionsLine,
  rederiveRun,
  type Rederived,
} from '../../shared/runs/rederive.ts';
import { parseRunText } from '../../shared/runs/run-parse.ts';
import type { RequestOutcome, RunHeader, RunSummary } from '../../shared/runs/run-types.ts';
import { detectResultFormat, importSglangText } from '../../shared/runs/sglang-format.ts';
import { importVllmText } from '../../shared/runs/vllm-format.ts';

export interface CompareCliOptions {
  json?: boolean;
  /** A Markdown table (issues, docs) instead of the terminal table. */
  markdown?: boolean;
  /** CSV (spreadsheets) instead of the terminal table. */
  csv?: boolean;
  maxRegression?: number;
  /** Gate: the failure rate may rise by at most this many percentage points (default 0). */
  maxFailureIncrease?: number;
  /** Bootstrap replicates for the intervals (default 1000; 0: no intervals). */
  replicates?: number;
  /**
   * Whose per-request rules every run is compared under (definitions.ts). Default: the imported
   * results' (a vLLM result makes it vLLM's), else Tokenscope's.
   */
  definitions?: DefinitionsId;
}

/**
 * The definitions a comparison uses, and the runs under them: natives re-derived from their events,
 * imports as their tool measured them — or why the runs cannot be compared like with like.
 */
export function resolveDefinitions(
  runs: readonly LoadedRun[],
  asked: DefinitionsId | undefined,
): { definitions: DefinitionsId; runs: LoadedRun[]; defaulted: boolean } | string {
  const fixed = runs.map((r) => (r.rederive ? null : (r.summary.definitions ?? 'tokenscope')));
  const c = comparisonDefinitions(fixed, asked);
  if (typeof c === 'string') return c;
  const d = c.definitions;
  const out = runs.map((r) => {
    if (!r.rederive) return r;
    if ((r.summary.definitions ?? 'tokenscope') === d && d === 'tokenscope')
      return { ...r, rederivedAs: null };
    const x = r.rederive(d);
    return {
      ...r,
      summary: x.summary,
      outcomes: x.outcomes,
      strata: x.strata ?? r.strata ?? null,
      rederivedAs: d,
    };
  });
  return { definitions: d, runs: out, defaulted: c.defaulted };
}

export interface LoadedRun {
  file: string;
  label: string;
  model: string | null;
  url: string | null;
  header: RunHeader | null;
  summary: RunSummary;
  /** Measured requests (intervals); null for an aggregate-only import. */
  outcomes: readonly RequestOutcome[] | null;
  /** Said beside the run: its numbers were recomputed (no summary line, or a damaged one). */
  note?: string | null;
  /** Pooled repeats: requests per repeat (the intervals resample within each). */
  strata?: number[] | null;
  /**
   * The run under another preset's per-request rules, from its events (native runs and their
   * pools); absent for imports, whose numbers were made by their tool's client.
   */
  rederive?: (d: DefinitionsId) => Rederived;
  /** Set when the shown numbers were re-derived under other definitions than the stored ones. */
  rederivedAs?: DefinitionsId | null;
}

/**
 * A compared run: one file, or repeats joined with `+` (`a.r1.jsonl+a.r2.jsonl`) pooled into one
 * (shared/runs/pooled.ts). A name that exists as a file is that file, `+` or not.
 */
export async function loadRunOrPool(arg: string): Promise<LoadedRun[] | string> {
  const parts = arg.split('+');
  if (parts.length === 1 || (await exists(arg))) return loadRuns(arg);
  const loaded = await Promise.all(parts.map((f) => loadRun(f)));
  const bad = loaded.find((x): x is string => typeof x === 'string');
  if (bad) return bad;
  const runs = loaded as LoadedRun[];
  const noReq = runs.find((r) => !r.outcomes);
  if (noReq) return `${noReq.file}: no per-request data to pool (a result with aggregates only)`;
  const pooled = poolRuns(runs.map((r) => ({ header: r.header, summary: r.summary, outcomes: r.outcomes! })));
  const first = runs[0]!;
  const canRederive = runs.every((r) => r.rederive);
  const rederive = canRederive
    ? (d: DefinitionsId): Rederived => {
        const parts = runs.map((r) => ({ header: r.header, ...r.rederive!(d) }));
        return poolRuns(parts);
      }
    : undefined;
  const notes = runs.filter((r) => r.note).map((r) => `${path.basename(r.file)}: ${r.note}`);
  return [
    {
      file: parts.join(' + '),
      label: `${first.label.replace(/ · repeat \d+\/\d+$/, '')} (${runs.length} repeats pooled)`,
      model: first.model,
      url: first.url,
      header: first.header,
      summary: pooled.summary,
      outcomes: pooled.outcomes,
      strata: pooled.strata,
      note: notes.length ? notes.join('; ') : null,
      ...(rederive ? { rederive } : {}),
    },
  ];
}

async function exists(f: string): Promise<boolean> {
  try {
    await stat(f);
    return true;
  } catch {
    return false;
  }
}

/** One run: a run file, or a result file with one result (or `FILE#N`, its Nth). */
export async function loadRun(arg: string): Promise<LoadedRun | string> {
  const r = await loadRuns(arg);
  if (typeof r === 'string') return r;
  if (r.length !== 1)
    return `${arg}: holds ${r.length} results (vLLM --append-result): pick one as ${arg}#1 … ${arg}#${r.length}`;
  return r[0]!;
}

/**
 * The runs of a file: a run file's one run, or every result of a vLLM / SGLang file (vLLM's
 * --append-result appends one per benchmark). `FILE#N` picks the Nth result (1-based).
 */
export async function loadRuns(arg: string): Promise<LoadedRun[] | string> {
  let file = arg;
  let pick: number | null = null;
  const m = /^(.*)#(\d+)$/.exec(arg);
  if (m && !(await exists(arg))) {
    file = m[1]!;
    pick = Number(m[2]);
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return `${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  const base = path.basename(file);
  const f = detectResultFormat(text);
  if (f === 'tokenscope') {
    const r = parseRunText(text);
    if (!r.ok) return `${file}: ${r.error}`;
    // The same request twice is not a file one run wrote (concatenated, edited): its numbers
    // would count it twice, or silently drop one; refuse rather than guess.
    const dup = r.run.problems.find((p) => p.includes('appears again'));
    if (dup) return `${file}: duplicate request lines (${dup}); not a file one run wrote, not compared`;
    const h = r.run.header;
    const n = r.run.requests.filter((l) => !l.warmup).length;
    const note = r.run.damage
      ? `damaged: ${r.run.damage}; recomputed from ${n} request lines`
      : r.run.partial
        ? `partial: no summary line, recomputed from ${n} request lines`
        : r.run.problems.length > 0
          ? `${r.run.problems.length} line${r.run.problems.length === 1 ? '' : 's'} skipped: ${r.run.problems[0]}`
          : null;
    if (pick !== null && pick !== 1) return `${arg}: a run file holds one run`;
    return [
      {
        file,
        label: h.name ?? base,
        model: h.target.model,
        url: h.target.url,
        header: h,
        summary: r.run.summary,
        outcomes: r.run.requests.filter((l) => !l.warmup && !isCancelledLine(l)).map((l) => outcomeOfLine(l)),
        note,
        rederive: (d: DefinitionsId) => rederiveRun(h, r.run.requests, r.run.summary, d),
      },
    ];
  }
  if (f === 'vllm' || f === 'sglang') {
    const r = f === 'vllm' ? importVllmText(text) : importSglangText(text);
    if (!r.ok) return `${file}: ${r.error}`;
    if (r.runs.length === 0) return `${file}: no result in the file`;
    if (pick !== null && (pick < 1 || pick > r.runs.length))
      return `${arg}: the file holds ${r.runs.length} result${r.runs.length === 1 ? '' : 's'}`;
    const several = r.runs.length > 1;
    const chosen =
      pick === null ? r.runs.map((x, i) => [x, i] as const) : [[r.runs[pick - 1]!, pick - 1] as const];
    return chosen.map(([run, i]) => ({
      file: several ? `${file}#${i + 1}` : file,
      label: `${run.label ?? base}${several ? ` #${i + 1}` : ''}`,
      model: run.model,
      url: null,
      header: null,
      summary: run.summary,
      outcomes: run.outcomes,
    }));
  }
  return `${file}: not a Tokenscope run file, nor a vLLM or SGLang result`;
}

const MARK = {
  better: '↑ better',
  worse: '↓ worse',
  same: '= same',
  unclear: '~ not distinguishable',
} as const;

export function compareText(
  runs: readonly LoadedRun[],
  rows: readonly CompareRow[],
  diffs: readonly string[],
  banner: string | null = null,
  defsLine: string | null = null,
): string {
  const out: string[] = [];
  runs.forEach((r, i) =>
    out.push(`${LETTERS[i]}  ${runLegend(r)}  (${r.file})${r.note ? `  [${r.note}]` : ''}`),
  );
  if (defsLine) out.push('', defsLine);
  if (diffs.length) out.push('', `The workloads differ: ${diffs.join(' · ')}.`);
  if (banner) out.push('', banner);
  const withCi = rows.some((r) => r.ci.some(Boolean));
  const head = [
    '',
    'A (baseline)',
    ...runs.slice(1).flatMap((_, i) => [LETTERS[i + 1]!, `vs A`, ...(withCi ? ['95 % interval'] : []), '']),
  ];
  const table: string[][] = [];
  let group = '';
  for (const row of rows) {
    if (row.def.group && row.def.group !== group) {
      group = row.def.group;
      table.push([`${group}`]);
    }
    const cells = [`  ${row.def.label}`, compareCell(row, 0)];
    for (let i = 1; i < runs.length; i++) {
      const v = row.verdict[i];
      const mark = v ? `${MARK[v]}${row.unreliable[i] ? ` ${UNRELIABLE_MARK}` : ''}` : '';
      cells.push(compareCell(row, i), relCell(row, i), ...(withCi ? [ciCell(row, i)] : []), mark);
    }
    table.push(cells);
  }
  const widths = head.map((h, c) => Math.max(h.length, ...table.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.length === 1
      ? cells[0]!
      : cells
          .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
          .join('  ')
          .trimEnd();
  out.push('', line(head), ...table.map(line));
  if (withCi) out.push('', INTERVAL_NOTE);
  if (rows.some((r) => r.unreliable.some(Boolean))) out.push(UNRELIABLE_NOTE);
  return out.join('\n') + '\n';
}

export async function runCompare(
  files: string[],
  o: CompareCliOptions,
  write: (s: string) => void = (s) => void process.stdout.write(s),
): Promise<number> {
  const fail = (message: string): number => {
    if (o.json) write(JSON.stringify({ error: { kind: 'client', message } }) + '\n');
    else process.stderr.write(`error: ${message}\n`);
    return 2;
  };
  if (files.length < 1 || files.length > MAX_COMPARED)
    return fail(`compare takes 2 to ${MAX_COMPARED} run or result files, got ${files.length}`);
  if ([o.json, o.markdown, o.csv].filter(Boolean).length > 1)
    return fail('give one of --json, --markdown, --csv');
  if (o.maxRegression !== undefined && !(o.maxRegression >= 0))
    return fail('--max-regression must be a percentage ≥ 0');
  if (o.maxFailureIncrease !== undefined && !(o.maxFailureIncrease >= 0 && o.maxFailureIncrease <= 100))
    return fail('--max-failure-increase must be percentage points between 0 and 100');
  if (
    o.replicates !== undefined &&
    !(Number.isInteger(o.replicates) && o.replicates >= 0 && o.replicates <= 100_000)
  )
    return fail('--replicates must be a whole number from 0 (no intervals) to 100000');
  const loaded = await Promise.all(files.map((f) => loadRunOrPool(f)));
  const bad = loaded.filter((x): x is string => typeof x === 'string');
  if (bad.length) return fail(bad.join('; '));
  // A result file with several results (vLLM --append-result) brings all of them.
  const all = (loaded as LoadedRun[][]).flat();
  if (all.length < 2 || all.length > MAX_COMPARED)
    return fail(
      `compare takes 2 to ${MAX_COMPARED} runs, got ${all.length}${all.length > files.length ? ` (${files.length} file${files.length === 1 ? '' : 's'} holding ${all.length} results; pick some as FILE#N)` : ''}`,
    );
  const resolved = resolveDefinitions(all, o.definitions);
  if (typeof resolved === 'string') return fail(resolved);
  const runs = resolved.runs;
  const clients = clientsNote(runs.map((r) => r.summary));
  const defsLine =
    definitionsLine(
      resolved.definitions,
      runs.map((r) => !!r.rederivedAs),
      resolved.defaulted,
    ) + (clients ? `\n${clients}` : '');
  const replicates = o.replicates ?? undefined;
  const intervals = replicates === 0 ? null : compareIntervals(runs, { replicates });
  const rows = compareRows(
    runs.map((r) => r.summary),
    intervals,
  );
  const diffs = workloadDifferences(runs);
  const banner = failureBanner(
    runs.map((r) => r.summary),
    rows,
  );
  const gate = o.maxRegression !== undefined || o.maxFailureIncrease !== undefined;
  const regressions = gate ? gateRegressions(rows, o.maxRegression ?? null, o.maxFailureIncrease ?? 0) : [];
  if (o.json) {
    write(
      JSON.stringify({
        runs: runs.map((r, i) => ({
          id: LETTERS[i],
          file: r.file,
          label: r.label,
          model: r.model,
          url: r.url,
          note: r.note ?? null,
          rederived: r.rederivedAs ?? null,
        })),
        definitions: resolved.definitions,
        clientsNote: clients,
        workloadDifferences: diffs,
        rows: rows.map((r) => ({
          metric: r.def.id,
          label: r.def.label,
          unit: r.def.unit,
          better: r.def.better,
          values: r.values,
          relative: r.rel,
          change: r.def.change ?? 'relative',
          // Per run: the 95 % interval of `relative` (a fraction; for change "absolute", in the unit).
          interval: r.ci,
          verdict: r.verdict,
          unreliable: r.unreliable,
          // Server quantiles only known to a wide histogram bucket: [lower, upper|null] ms, per run.
          ranges: r.ranges,
        })),
        failures: runs.map((r, i) => ({
          id: LETTERS[i],
          completed: r.summary.vllm.completed,
          failed: r.summary.vllm.failed,
        })),
        failureBanner: banner,
        intervals:
          intervals === null
            ? null
            : {
                level: 0.95,
                method: 'bootstrap-percentile',
                unit: 'request',
                replicates: replicates ?? 1000,
              },
        ...(gate
          ? {
              maxRegressionPct: o.maxRegression ?? null,
              maxFailureIncreasePp: o.maxFailureIncrease ?? 0,
              regressions,
            }
          : {}),
      }) + '\n',
    );
  } else if (o.csv) {
    write(compareCsv(runs, rows, resolved.definitions));
  } else {
    write(
      o.markdown
        ? compareMarkdown(runs, rows, diffs, banner, defsLine)
        : compareText(runs, rows, diffs, banner, defsLine),
    );
    if (gate) {
      const rules = [
        ...(o.maxRegression !== undefined ? [`worse than A by more than ${o.maxRegression}%`] : []),
        `failure rate up by more than ${o.maxFailureIncrease ?? 0} pp`,
      ].join(', or ');
      write(
        regressions.length
          ? `\n${regressions.length} regression(s) (${rules}, with 95 % confidence): ${regressions
              .map((x) => `${x.run} ${x.label} ${x.text}`)
              .join(', ')}\n`
          : `\nNo regression: no metric ${rules}, with 95 % confidence.\n`,
      );
    }
  }
  return regressions.length ? 1 : 0;
}

export interface Regression {
  run: string;
  metric: string;
  label: string;
  /** The change (relative, or percentage points for the failure rate). */
  change: number;
  /** Its 95 % interval, when there is one. */
  interval: [number, number] | null;
  text: string;
}

/**
 * The gate. A metric regresses when it is worse than A by more than `maxRel` (a percentage) for
 * the whole of its interval — the bound nearest zero clears the threshold — or, without an
 * interval (throughputs, server metrics, aggregate-only imports), by its value. The failure rate
 * regresses when its whole interval lies above `maxFailPp` percentage points.
 */
export function gateRegressions(
  rows: readonly CompareRow[],
  maxRel: number | null,
  maxFailPp: number,
): Regression[] {
  const out: Regression[] = [];
  for (const r of rows) {
    const fail = r.def.id === 'fail-rate';
    if (!fail && (maxRel === null || r.def.better === null)) continue;
    const limit = fail ? maxFailPp : maxRel! / 100;
    r.verdict.forEach((v, i) => {
      const change = r.rel[i] ?? null;
      // A quantile known only to a wide server bucket has no number to gate on.
      if (v !== 'worse' || change === null) return;
      const ci = r.ci[i] ?? null;
      // The bound nearest zero, in the worse direction.
      const nearest = ci
        ? r.def.better === 'lower'
          ? ci[0]
          : -ci[1]
        : r.def.better === 'lower'
          ? change
          : -change;
      if (nearest <= limit) return;
      const text = `${fmtChange(r, change)}${ci ? ` ${ciCell(r, i)}` : ''}`;
      out.push({ run: LETTERS[i]!, metric: r.def.id, label: r.def.label, change, interval: ci, text });
    });
  }
  return out;
}
