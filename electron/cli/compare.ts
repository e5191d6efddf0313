/**
 * `tokenscope compare A B [C D]`: runs side by side in the terminal — Tokenscope run files or
 * vLLM / SGLang result files, in any mix — with the same rows, baseline and verdicts as the app's
 * comparison (shared/runs/compare.ts). `--max-regression PCT` makes it a CI gate: exit 1 when any
 * metric with a direction is worse than the baseline by more than PCT percent.
 *
 * Exit codes: 0 ok · 1 a regression beyond --max-regression · 2 bad arguments or unreadable file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  compareRows,
  MAX_COMPARED,
  workloadDifferences,
  type CompareRow,
} from '../../shared/runs/compare.ts';
import {
  compareCell,
  compareCsv,
  compareMarkdown,
  fmtRelChange,
  LETTERS,
  relCell,
  runLegend,
} from '../../shared/runs/compare-export.ts';
import { parseRunText } from '../../shared/runs/run-parse.ts';
import type { RunHeader, RunSummary } from '../../shared/runs/run-types.ts';
import { detectResultFormat, importSglangText } from '../../shared/runs/sglang-format.ts';
import { importVllmText } from '../../shared/runs/vllm-format.ts';

export interface CompareCliOptions {
  json?: boolean;
  /** A Markdown table (issues, docs) instead of the terminal table. */
  markdown?: boolean;
  /** CSV (spreadsheets) instead of the terminal table. */
  csv?: boolean;
  maxRegression?: number;
}

export interface LoadedRun {
  file: string;
  label: string;
  model: string | null;
  url: string | null;
  header: RunHeader | null;
  summary: RunSummary;
  /** Said beside the run: its numbers were recomputed (no summary line, or a damaged one). */
  note?: string | null;
}

/** A run file or a vLLM/SGLang result (its first result), or why it cannot be read. */
export async function loadRun(file: string): Promise<LoadedRun | string> {
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
    return {
      file,
      label: h.name ?? base,
      model: h.target.model,
      url: h.target.url,
      header: h,
      summary: r.run.summary,
      note,
    };
  }
  if (f === 'vllm' || f === 'sglang') {
    const r = f === 'vllm' ? importVllmText(text) : importSglangText(text);
    if (!r.ok) return `${file}: ${r.error}`;
    const run = r.runs[0];
    if (!run) return `${file}: no result in the file`;
    return {
      file,
      label: run.label ?? base,
      model: run.model,
      url: null,
      header: null,
      summary: run.summary,
    };
  }
  return `${file}: not a Tokenscope run file, nor a vLLM or SGLang result`;
}

const MARK = { better: '↑ better', worse: '↓ worse', same: '= same' } as const;

export function compareText(
  runs: readonly LoadedRun[],
  rows: readonly CompareRow[],
  diffs: readonly string[],
): string {
  const out: string[] = [];
  runs.forEach((r, i) =>
    out.push(`${LETTERS[i]}  ${runLegend(r)}  (${r.file})${r.note ? `  [${r.note}]` : ''}`),
  );
  if (diffs.length) out.push('', `The workloads differ: ${diffs.join(' · ')}.`);
  const head = ['', 'A (baseline)', ...runs.slice(1).flatMap((_, i) => [LETTERS[i + 1]!, `vs A`, ''])];
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
      cells.push(compareCell(row, i), relCell(row, i), v ? MARK[v] : '');
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
  if (files.length < 2 || files.length > MAX_COMPARED)
    return fail(`compare takes 2 to ${MAX_COMPARED} run or result files, got ${files.length}`);
  if ([o.json, o.markdown, o.csv].filter(Boolean).length > 1)
    return fail('give one of --json, --markdown, --csv');
  if (o.maxRegression !== undefined && !(o.maxRegression >= 0))
    return fail('--max-regression must be a percentage ≥ 0');
  const loaded = await Promise.all(files.map((f) => loadRun(f)));
  const bad = loaded.filter((x): x is string => typeof x === 'string');
  if (bad.length) return fail(bad.join('; '));
  const runs = loaded as LoadedRun[];
  const rows = compareRows(runs.map((r) => r.summary));
  const diffs = workloadDifferences(runs);
  const limit = o.maxRegression === undefined ? null : o.maxRegression / 100;
  const regressions =
    limit === null
      ? []
      : rows.flatMap((r) =>
          r.verdict.flatMap((v, i) =>
            // A quantile known only to a wide server bucket has no percentage to gate on.
            v === 'worse' && r.rel[i] !== null && Math.abs(r.rel[i] ?? 0) > limit
              ? [{ run: LETTERS[i]!, metric: r.def.id, label: r.def.label, change: r.rel[i]! }]
              : [],
          ),
        );
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
        })),
        workloadDifferences: diffs,
        rows: rows.map((r) => ({
          metric: r.def.id,
          label: r.def.label,
          unit: r.def.unit,
          better: r.def.better,
          values: r.values,
          relative: r.rel,
          verdict: r.verdict,
          // Server quantiles only known to a wide histogram bucket: [lower, upper|null] ms, per run.
          ranges: r.ranges,
        })),
        ...(limit !== null ? { maxRegressionPct: o.maxRegression, regressions } : {}),
      }) + '\n',
    );
  } else if (o.csv) {
    write(compareCsv(runs, rows));
  } else {
    write(o.markdown ? compareMarkdown(runs, rows, diffs) : compareText(runs, rows, diffs));
    if (limit !== null)
      write(
        regressions.length
          ? `\n${regressions.length} regression(s) beyond ${o.maxRegression}%: ${regressions
              .map((x) => `${x.run} ${x.label} ${fmtRelChange(x.change)}`)
              .join(', ')}\n`
          : `\nNo metric worse than A by more than ${o.maxRegression}%.\n`,
      );
  }
  return regressions.length ? 1 : 0;
}
