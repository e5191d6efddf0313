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
import {
  compareRows,
  failureBanner,
  MAX_COMPARED,
  workloadDifferences,
  type CompareRow,
} from '../../shared/runs/compare.ts';
import { compareIntervals } from '../../shared/runs/compare-intervals.ts';
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
import type { DefinitionsId } from '../../shared/runs/definitions.ts';
import { clientsNote, definitionsLine } from '../../shared/runs/rederive.ts';
import { loadRunOrPool, resolveDefinitions, type LoadedRun } from './compare-load.ts';

export { loadRun, loadRunOrPool, loadRuns, resolveDefinitions, type LoadedRun } from './compare-load.ts';

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
  const problem = optionProblem(files.length, o);
  if (problem !== null) return fail(problem);
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
    const c: Compared = {
      runs,
      rows,
      definitions: resolved.definitions,
      clients,
      diffs,
      banner,
      withIntervals: intervals !== null,
      gate,
      regressions,
    };
    write(JSON.stringify(compareJson(c, o)) + '\n');
  } else if (o.csv) {
    write(compareCsv(runs, rows, resolved.definitions));
  } else {
    write(
      o.markdown
        ? compareMarkdown(runs, rows, diffs, banner, defsLine)
        : compareText(runs, rows, diffs, banner, defsLine),
    );
    if (gate) write(gateText(o, regressions));
  }
  return regressions.length ? 1 : 0;
}

/** What is wrong with the arguments, before any file is read; null when nothing is. */
function optionProblem(fileCount: number, o: CompareCliOptions): string | null {
  if (fileCount < 1 || fileCount > MAX_COMPARED)
    return `compare takes 2 to ${MAX_COMPARED} run or result files, got ${fileCount}`;
  if ([o.json, o.markdown, o.csv].filter(Boolean).length > 1) return 'give one of --json, --markdown, --csv';
  if (o.maxRegression !== undefined && !(o.maxRegression >= 0))
    return '--max-regression must be a percentage ≥ 0';
  if (o.maxFailureIncrease !== undefined && !(o.maxFailureIncrease >= 0 && o.maxFailureIncrease <= 100))
    return '--max-failure-increase must be percentage points between 0 and 100';
  if (
    o.replicates !== undefined &&
    !(Number.isInteger(o.replicates) && o.replicates >= 0 && o.replicates <= 100_000)
  )
    return '--replicates must be a whole number from 0 (no intervals) to 100000';
  return null;
}

/** A comparison, worked out: what the JSON report is made of. */
interface Compared {
  runs: readonly LoadedRun[];
  rows: readonly CompareRow[];
  definitions: DefinitionsId;
  clients: string | null;
  diffs: readonly string[];
  banner: string | null;
  /** Bootstrap intervals were computed (not --replicates 0). */
  withIntervals: boolean;
  /** --max-regression or --max-failure-increase was given. */
  gate: boolean;
  regressions: readonly Regression[];
}

/** The comparison as one JSON object (--json): runs, rows with intervals, failures, the gate. */
function compareJson(c: Compared, o: CompareCliOptions): object {
  const { runs, rows } = c;
  return {
    runs: runs.map((r, i) => ({
      id: LETTERS[i],
      file: r.file,
      label: r.label,
      model: r.model,
      url: r.url,
      note: r.note ?? null,
      rederived: r.rederivedAs ?? null,
    })),
    definitions: c.definitions,
    clientsNote: c.clients,
    workloadDifferences: c.diffs,
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
    failureBanner: c.banner,
    intervals: c.withIntervals
      ? {
          level: 0.95,
          method: 'bootstrap-percentile',
          unit: 'request',
          replicates: o.replicates ?? 1000,
        }
      : null,
    ...(c.gate
      ? {
          maxRegressionPct: o.maxRegression ?? null,
          maxFailureIncreasePp: o.maxFailureIncrease ?? 0,
          regressions: c.regressions,
        }
      : {}),
  };
}

/** The gate's verdict under the terminal or Markdown table. */
function gateText(o: CompareCliOptions, regressions: readonly Regression[]): string {
  const rules = [
    ...(o.maxRegression !== undefined ? [`worse than A by more than ${o.maxRegression}%`] : []),
    `failure rate up by more than ${o.maxFailureIncrease ?? 0} pp`,
  ].join(', or ');
  return regressions.length
    ? `\n${regressions.length} regression(s) (${rules}, with 95 % confidence): ${regressions
        .map((x) => `${x.run} ${x.label} ${x.text}`)
        .join(', ')}\n`
    : `\nNo regression: no metric ${rules}, with 95 % confidence.\n`;
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
