/**
 * A comparison of runs (compare.ts) as something to paste or load elsewhere: a Markdown table
 * (issues, docs, chat) and CSV (spreadsheets), the same rows and verdicts as the app and
 * `tokenscope compare`. The terminal table uses the same cell text (compareCell, relCell).
 */
import { bucketChangeText, type CompareRow } from './compare.ts';
import { bucketText } from './server-quantile.ts';

export const LETTERS = ['A', 'B', 'C', 'D'] as const;

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
export function fmtRelChange(r: number | null): string {
  if (r === null) return '';
  const pct = r * 100;
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct).toFixed(Math.abs(pct) >= 10 ? 1 : 2)}%`;
}

/** Run i against the baseline: the percentage, or the bucket comparison where there is none. */
export function relCell(row: CompareRow, i: number): string {
  return row.byBucket[i] ? bucketChangeText(row, i) : fmtRelChange(row.rel[i] ?? null);
}

const VERDICT = { better: 'better', worse: 'worse', same: 'same' } as const;

const mdEscape = (s: string) => s.replace(/\|/g, '\\|');

/** GitHub-flavoured Markdown: who is who, what differs between the workloads, then the table. */
export function compareMarkdown(
  runs: readonly ComparedRunLabel[],
  rows: readonly CompareRow[],
  diffs: readonly string[],
): string {
  const out: string[] = [];
  runs.forEach((r, i) =>
    out.push(
      `- **${LETTERS[i]}**${i === 0 ? ' (baseline)' : ''}: ${runLegend({ ...r, label: mdEscape(r.label) }, (m) => `\`${m}\``)}`,
    ),
  );
  if (diffs.length) out.push('', `> The workloads differ: ${mdEscape(diffs.join(' · '))}.`);
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
      const rel = relCell(row, i);
      cells.push(compareCell(row, i), rel && v ? `${rel} (${VERDICT[v]})` : rel);
    }
    out.push(`| ${cells.join(' | ')} |`);
  }
  return out.join('\n') + '\n';
}

/** RFC 4180 field: quoted when it holds a comma, a quote or a line break. */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One row per metric, numbers as numbers (ms, tok/s… in the `unit` column): per run its value
 * (or, where only a server histogram bucket is known, the bucket as `lo–hi`), then for each run
 * after the first its change against A in percent (empty where there is none, as between
 * buckets) and the verdict (better / worse / same, empty where nothing can be said).
 */
export function compareCsv(runs: readonly ComparedRunLabel[], rows: readonly CompareRow[]): string {
  const letters = runs.map((_, i) => LETTERS[i]!);
  const head = [
    'metric_id',
    'metric',
    'unit',
    'better',
    ...letters,
    ...letters.slice(1).flatMap((l) => [`${l}_vs_A_pct`, `${l}_verdict`]),
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
      const r = row.rel[i] ?? null;
      const verdict = row.verdict[i] ?? null;
      return [r === null ? '' : String(+(r * 100).toFixed(6)), verdict ?? ''];
    });
    lines.push(
      [row.def.id, row.def.label, row.def.unit, row.def.better ?? '', ...vals, ...rels]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
