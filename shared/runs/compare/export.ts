/**
 * A comparison of runs (compare.ts) as something to paste or load elsewhere: a Markdown table
 * (issues, docs, chat) and CSV (spreadsheets), the same rows and verdicts as the app and
 * `tokenscope compare`. The terminal table uses the same cell text (compareCell, relCell).
 */
import { bucketChangeText, tooFewText, type CompareRow } from './compare.ts';
import { bucketText } from '../summary/server-quantile.ts';
import { LETTERS } from '../letters.ts';

/** Which run is which, for the legend above a table. */
export interface ComparedRunLabel {
  label: string;
  model: string | null;
  url: string | null;
}

/** "label · model · url", what is known of a compared run; `code` marks up the model name. */
export function runLegend(r: ComparedRunLabel, code: (model: string) => string = (m) => m): string {
  return [r.label, r.model && code(r.model), r.url].filter(Boolean).join(' · ');
}

/** A value with its unit, as the terminal and Markdown show it ("55.54 ms", "0–300 ms", "1,024"). */
export function compareCell(row: CompareRow, i: number): string {
  const v = row.values[i] ?? null;
  const range = row.ranges[i] ?? null;
  if (range && v !== null) return `${bucketText(range)} ${row.def.unit}`;
  if (v === null) return '—';
  const unit = row.def.unit;
  if (unit === 'count') return v.toLocaleString('en-US');
  if (unit === 's') return `${v.toFixed(2)} s`;
  return `${v.toFixed(Math.abs(v) >= 100 ? 1 : 2)} ${unit}`;
}

/** A relative change as text ("+12.5%", "−0.40%"); '' when there is none. */
function fmtRelChange(r: number | null): string {
  if (r === null) return '';
  const pct = r * 100;
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct).toFixed(Math.abs(pct) >= 10 ? 1 : 2)}%`;
}

/** An absolute change in percentage points ("+12.0 pp", "−0.50 pp"). */
export function fmtPointChange(d: number | null): string {
  if (d === null) return '';
  const a = Math.abs(d);
  return `${d > 0 ? '+' : d < 0 ? '−' : '±'}${a.toFixed(a >= 10 ? 1 : 2)} pp`;
}

/** A change in the row's terms: relative %, or percentage points for a share. */
export function fmtChange(row: CompareRow, d: number | null): string {
  return row.def.change === 'absolute' ? fmtPointChange(d) : fmtRelChange(d);
}

/** Run i against the baseline: the percentage, or the bucket comparison where there is none. */
export function relCell(row: CompareRow, i: number): string {
  return row.byBucket[i] ? bucketChangeText(row, i) : fmtChange(row, row.rel[i] ?? null);
}

/**
 * The 95 % interval of the change ("[+2.1%, +9.8%]"); where a quantile rests on too few requests,
 * that ("too few requests for p99"); '' otherwise.
 */
export function ciCell(row: CompareRow, i: number): string {
  const c = row.ci[i] ?? null;
  if (row.tooFew[i]) return tooFewText(row);
  if (!c) return '';
  return `[${fmtChange(row, c[0])}, ${fmtChange(row, c[1])}]`;
}

const VERDICT = { better: 'better', worse: 'worse', same: 'same', unclear: 'not distinguishable' } as const;
export const VERDICT_TEXT = VERDICT;

/** Said beside a change whose runs' failure rates differ clearly. */
export const UNRELIABLE_MARK = '⚠';
export const UNRELIABLE_NOTE =
  '⚠ the failure rates differ: failed requests end early and unload the server, so throughput and latency changes say little';

const mdEscape = (s: string) => s.replace(/\|/g, '\\|');

/** GitHub-flavoured Markdown: who is who, what differs between the workloads, then the table. */
export function compareMarkdown(
  runs: readonly ComparedRunLabel[],
  rows: readonly CompareRow[],
  diffs: readonly string[],
  banner: string | null = null,
  defsLine: string | null = null,
): string {
  const out: string[] = [];
  runs.forEach((r, i) =>
    out.push(
      `- **${LETTERS[i]}**${i === 0 ? ' (baseline)' : ''}: ${runLegend({ ...r, label: mdEscape(r.label) }, (m) => `\`${m}\``)}`,
    ),
  );
  if (diffs.length) out.push('', `> The workloads differ: ${mdEscape(diffs.join(' · '))}.`);
  if (defsLine) out.push('', mdEscape(defsLine));
  if (banner) out.push('', `> ${mdEscape(banner)}`);
  const head = ['metric', 'A', ...runs.slice(1).flatMap((_, i) => [LETTERS[i + 1]!, 'vs A'])];
  out.push(
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, c) => (c === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  );
  let group = '';
  for (const row of rows) {
    if (row.def.group && row.def.group !== group) {
      group = row.def.group;
      out.push(`| **${mdEscape(group)}** |${' |'.repeat(head.length - 1)}`);
    }
    const cells = [mdEscape(row.def.label), compareCell(row, 0)];
    for (let i = 1; i < runs.length; i++) {
      const v = row.verdict[i];
      const rel = [relCell(row, i), ciCell(row, i)].filter(Boolean).join(' ');
      const mark = row.unreliable[i] ? ` ${UNRELIABLE_MARK}` : '';
      cells.push(compareCell(row, i), rel && v ? `${rel} (${VERDICT[v]})${mark}` : rel);
    }
    out.push(`| ${cells.join(' | ')} |`);
  }
  if (rows.some((r) => r.ci.some(Boolean))) out.push('', INTERVAL_NOTE);
  if (rows.some((r) => r.unreliable.some(Boolean))) out.push('', UNRELIABLE_NOTE);
  return out.join('\n') + '\n';
}

export const INTERVAL_NOTE =
  '[low, high]: 95 % interval of the change (requests resampled with their share of the run time, 1,000 replicates, seeded; the failure rate: Newcombe score interval; pooled repeats widened by their drift); "not distinguishable" when it spans zero, "same" when all of it lies within the equivalence margin; "too few requests" where a quantile rests on fewer than 4 requests above it.';

/** RFC 4180 field: quoted when it holds a comma, a quote or a line break. */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One row per metric, numbers as numbers (ms, tok/s… in the `unit` column): per run its value
 * (or, where only a server histogram bucket is known, the bucket as `lo–hi`), then for each run
 * after the first its change against A (`change` says how: `pct` relative in percent, `pp`
 * absolute in percentage points; empty where there is none, as between buckets), the 95 %
 * interval of that change, the verdict (better / worse / same / unclear, `too-few` where a quantile
 * rests on too few requests for an interval, empty where nothing can be said), whether the change
 * is unreliable (the failure rates differ), and the definitions preset every number was computed
 * under (definitions.ts).
 */
export function compareCsv(
  runs: readonly ComparedRunLabel[],
  rows: readonly CompareRow[],
  definitions = 'tokenscope',
): string {
  const letters = runs.map((_, i) => LETTERS[i]!);
  const head = [
    'metric_id',
    'metric',
    'unit',
    'better',
    'change',
    ...letters,
    ...letters
      .slice(1)
      .flatMap((l) => [`${l}_vs_A`, `${l}_ci_low`, `${l}_ci_high`, `${l}_verdict`, `${l}_unreliable`]),
    'definitions',
  ];
  const lines = [head.join(',')];
  for (const row of rows) {
    const vals = runs.map((_, i) => {
      const v = row.values[i] ?? null;
      const range = row.ranges[i] ?? null;
      if (range && v !== null) return bucketText(range);
      return v === null ? '' : String(v);
    });
    const rels = runs.slice(1).flatMap((_, k) => {
      const i = k + 1;
      // Relative changes in %, absolute ones (a failure rate) in the row's unit (percentage points).
      const scale = row.def.change === 'absolute' ? 1 : 100;
      const n = (x: number | null | undefined) =>
        x === null || x === undefined ? '' : String(+(x * scale).toFixed(6));
      const c = row.ci[i] ?? null;
      const verdict = row.verdict[i] ?? null;
      const said = verdict ?? (row.tooFew[i] ? 'too-few' : '');
      return [n(row.rel[i]), n(c?.[0]), n(c?.[1]), said, row.unreliable[i] ? 'yes' : ''];
    });
    const change = row.def.change === 'absolute' ? 'pp' : 'pct';
    lines.push(
      [row.def.id, row.def.label, row.def.unit, row.def.better ?? '', change, ...vals, ...rels, definitions]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
