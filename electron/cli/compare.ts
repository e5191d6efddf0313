/**
 * `tokenscope compare A B [C D]`: runs side by side in the terminal — Tokenscope run files or
 * vLLM / SGLang result files, in any mix — with the same rows, baseline and verdicts as the app's
 * comparison (shared/runs/compare/compare.ts), each change with its 95 % interval
 * (shared/runs/compare/intervals.ts). `--same-within PCT` is the equivalence margin ("same": the
 * whole interval within ±PCT). `--max-regression PCT` makes it a CI gate
 * (shared/runs/compare/gate.ts): exit 1 when a metric with an interval is worse than the baseline
 * by more than PCT percent with confidence, or when the failure rate rose clearly by more than
 * `--max-failure-increase` percentage points (default 0: any increase beyond noise); rows without
 * an interval are listed as not gated.
 *
 * Exit codes: 0 ok · 1 a regression beyond --max-regression · 2 bad arguments or unreadable file.
 */
import {
  compareRows,
  failureBanner,
  MAX_COMPARED,
  SAME_WITHIN,
  workloadDifferences,
  type CompareRow,
} from '../../shared/runs/compare/compare.ts';
import {
  compareIntervalsForGate,
  MIN_TAIL_REQUESTS,
  type GateBounds,
} from '../../shared/runs/compare/intervals.ts';
import { gateRegressions, type GateResult } from '../../shared/runs/compare/gate.ts';
import { compareByModel, modelIntervals, type ModelComparison } from '../../shared/runs/compare/by-model.ts';
import {
  ciCell,
  compareCell,
  compareCsv,
  compareMarkdown,
  INTERVAL_NOTE,
  relCell,
  runLegend,
  UNRELIABLE_MARK,
  UNRELIABLE_NOTE,
} from '../../shared/runs/compare/export.ts';
import { LETTERS } from '../../shared/runs/letters.ts';
import type { DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import { clientsNote, definitionsLine } from '../../shared/runs/summary/rederive.ts';
import { loadRunOrPool, resolveDefinitions, type LoadedRun } from './compare-load.ts';

export { loadRun, type LoadedRun } from './compare-load.ts';

export interface CompareCliOptions {
  json?: boolean;
  /** A Markdown table (issues, docs) instead of the terminal table. */
  markdown?: boolean;
  /** CSV (spreadsheets) instead of the terminal table. */
  csv?: boolean;
  maxRegression?: number;
  /** The equivalence margin, %: "same" when the whole interval lies within ±this (default 1). */
  sameWithin?: number;
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

function compareText(
  runs: readonly LoadedRun[],
  rows: readonly CompareRow[],
  diffs: readonly string[],
  banner: string | null = null,
  defsLine: string | null = null,
  byModel: ModelComparison | null = null,
): string {
  const out: string[] = [];
  runs.forEach((r, i) =>
    out.push(`${LETTERS[i]}  ${runLegend(r)}  (${r.file})${r.note ? `  [${r.note}]` : ''}`),
  );
  if (defsLine) out.push('', defsLine);
  if (diffs.length) out.push('', `The workloads differ: ${diffs.join(' · ')}.`);
  if (banner) out.push('', banner);
  const modelRows = byModel?.models.flatMap((m) => m.rows) ?? [];
  const withCi = [...rows, ...modelRows].some((r) => r.ci.some(Boolean));
  const head = [
    '',
    'A (baseline)',
    ...runs.slice(1).flatMap((_, i) => [LETTERS[i + 1]!, `vs A`, ...(withCi ? ['95 % interval'] : []), '']),
  ];
  const table: string[][] = [];
  let group = '';
  for (const row of [...rows, ...modelRows]) {
    if (row === modelRows[0]) table.push([''], [byModelHeading(byModel!)]);
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
  // Headings (one cell) are printed as they are: they do not widen the first column.
  const cellRows = table.filter((r) => r.length > 1);
  const widths = head.map((h, c) => Math.max(h.length, ...cellRows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.length === 1
      ? cells[0]!
      : cells
          .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
          .join('  ')
          .trimEnd();
  out.push('', line(head), ...table.map(line));
  if (withCi) out.push('', INTERVAL_NOTE);
  if ([...rows, ...modelRows].some((r) => r.unreliable.some(Boolean))) out.push(UNRELIABLE_NOTE);
  return out.join('\n') + '\n';
}

/** The line above the rows by model: what they are, and the runs that have none. */
function byModelHeading(m: ModelComparison): string {
  const none = m.noMix.map((i) => LETTERS[i]).join(', ');
  const more = m.more > 0 ? ` — ${m.more} more models not compared (at most ${m.models.length})` : '';
  return `By model (model mix: each model's requests alone; throughput: its share of the run, no verdict)${none ? ` — ${none}: no model mix` : ''}${more}`;
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
  const worked = replicates === 0 ? null : compareIntervalsForGate(runs, { replicates });
  const intervals = worked?.intervals ?? null;
  const rows = compareRows(
    runs.map((r) => r.summary),
    intervals,
    o.sameWithin === undefined ? {} : { sameWithin: o.sameWithin / 100 },
  );
  // Model mixes: each model's rows, its intervals from its own requests (by-model.ts).
  const byModel = compareByModel(
    runs.map((r) => r.summary),
    worked ? modelIntervals(runs, { replicates }) : null,
    o.sameWithin === undefined ? {} : { sameWithin: o.sameWithin / 100 },
  );
  const diffs = workloadDifferences(runs);
  const banner = failureBanner(
    runs.map((r) => r.summary),
    rows,
  );
  const gate = o.maxRegression !== undefined || o.maxFailureIncrease !== undefined;
  const bounds: GateBounds = worked?.gate ?? new Map();
  const judged: GateResult = gate
    ? gateRegressions(
        rows,
        bounds,
        o.maxRegression === undefined ? null : o.maxRegression / 100,
        o.maxFailureIncrease ?? 0,
      )
    : { regressions: [], ungated: [] };
  const regressions = judged.regressions;
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
      judged,
      byModel,
    };
    write(JSON.stringify(compareJson(c, o)) + '\n');
  } else if (o.csv) {
    write(
      compareCsv(runs, [...rows, ...(byModel?.models.flatMap((m) => m.rows) ?? [])], resolved.definitions),
    );
  } else {
    write(
      o.markdown
        ? compareMarkdown(
            runs,
            [...rows, ...(byModel?.models.flatMap((m) => m.rows) ?? [])],
            diffs,
            banner,
            defsLine,
          )
        : compareText(runs, rows, diffs, banner, defsLine, byModel),
    );
    if (gate) write(gateText(o, judged));
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
  if (o.sameWithin !== undefined && !(o.sameWithin >= 0 && o.sameWithin < 100))
    return '--same-within must be a percentage from 0 to below 100';
  if (o.replicates === 0 && (o.maxRegression !== undefined || o.maxFailureIncrease !== undefined))
    return 'the gate judges changes by their intervals: --max-regression / --max-failure-increase need --replicates above 0';
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
  judged: GateResult;
  /** Model mixes: each model's rows (by-model.ts); null when no run has one. */
  byModel: ModelComparison | null;
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
    rows: rows.map(rowJson),
    // Model mixes: per model its rows (metric ids "model:<name>:<row>"), the runs it is in.
    byModel: c.byModel && {
      noMix: c.byModel.noMix.map((i) => LETTERS[i]),
      models: c.byModel.models.map((m) => ({
        model: m.model,
        present: m.present,
        rows: m.rows.map(rowJson),
      })),
    },
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
          throughput: 'requests resampled with their share of the run time',
          failureRate: 'newcombe-wilson',
          repeats: 'widened by the between-repeat variance',
          minTailRequests: MIN_TAIL_REQUESTS,
          replicates: o.replicates ?? 1000,
        }
      : null,
    sameWithinPct: o.sameWithin ?? SAME_WITHIN * 100,
    ...(c.gate
      ? {
          maxRegressionPct: o.maxRegression ?? null,
          maxFailureIncreasePp: o.maxFailureIncrease ?? 0,
          regressions: c.judged.regressions,
          notGated: c.judged.ungated,
        }
      : {}),
  };
}

/** One compared row in the JSON report. */
function rowJson(r: CompareRow): object {
  return {
    metric: r.def.id,
    label: r.def.label,
    unit: r.def.unit,
    better: r.def.better,
    values: r.values,
    relative: r.rel,
    change: r.def.change ?? 'relative',
    // Per run: the 95 % interval of `relative` (a fraction; for change "absolute", in the unit).
    interval: r.ci,
    // Per run: a quantile on too few requests for an interval (no verdict).
    tooFew: r.tooFew,
    verdict: r.verdict,
    unreliable: r.unreliable,
    // Server quantiles only known to a wide histogram bucket: [lower, upper|null] ms, per run.
    ranges: r.ranges,
  };
}

/** The gate's verdict under the terminal or Markdown table. */
function gateText(o: CompareCliOptions, g: GateResult): string {
  const rules = [
    ...(o.maxRegression !== undefined ? [`worse than A by more than ${o.maxRegression}%`] : []),
    `failure rate up by more than ${o.maxFailureIncrease ?? 0} pp`,
  ].join(', or ');
  const { regressions, ungated } = g;
  const head = regressions.length
    ? `\n${regressions.length} regression(s) (${rules}, with 95 % confidence for all rows together): ${regressions
        .map((x) => `${x.run} ${x.label} ${x.text}`)
        .join(', ')}\n`
    : `\nNo regression: no metric ${rules}, with 95 % confidence for all rows together.\n`;
  const rest = ungated.length
    ? `Not gated (no interval), worse by their values: ${ungated.map((x) => `${x.run} ${x.label} ${x.text}`).join(', ')}\n`
    : '';
  return head + rest;
}
