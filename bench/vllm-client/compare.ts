/**
 * The vllm-client bench's comparison of one pair (bench/vllm-client.bench.ts): `tokenscope compare
 * VLLM RUN --json` read into rows (each client's value, the change and its 95 % interval), and
 * printed as a table on stderr.
 */
import { CLI, run } from './processes.ts';

interface JsonRow {
  metric: string;
  values: (number | null)[];
  relative: (number | null)[];
  interval: ([number, number] | null)[];
  verdict: (string | null)[];
}
export interface Row {
  metric: string;
  vllm: number | null;
  tokenscope: number | null;
  change: number | null;
  ci: [number, number] | null;
  /** The 95 % interval holds 0 (null: the row has no interval). */
  inside: boolean | null;
}

export interface Comparison {
  definitions: unknown;
  /** The rows both runs have a value for. */
  rows: Row[];
  /** Of those, the rows with an interval, and the ones whose interval does not hold 0. */
  withCi: Row[];
  outside: Row[];
}

export async function compareRuns(vfile: string, tfile: string): Promise<Comparison> {
  const cmp = await run([process.execPath, CLI, 'compare', vfile, tfile, '--json']);
  if (cmp.code !== 0) throw new Error(`compare: ${cmp.stdout}${cmp.stderr}`);
  const j = JSON.parse(cmp.stdout) as { definitions?: unknown; rows: JsonRow[] };
  const rows: Row[] = j.rows
    .filter((r) => r.values[0] !== null && r.values[1] !== null)
    .map((r) => {
      const ci = r.interval[1] ?? null;
      return {
        metric: r.metric,
        vllm: r.values[0]!,
        tokenscope: r.values[1]!,
        change: r.relative[1] ?? null,
        ci,
        inside: ci ? ci[0] <= 0 && 0 <= ci[1] : null,
      };
    });
  const withCi = rows.filter((r) => r.inside !== null);
  const outside = withCi.filter((r) => !r.inside);
  return { definitions: j.definitions, rows, withCi, outside };
}

/** The pair's heading (`label`: configuration, pair, order) and a line per row. */
export function printComparison(label: string, c: Comparison): void {
  process.stderr.write(
    `\n${label}, definitions ${String(c.definitions)}: ${c.withCi.length} rows with an interval, ${c.outside.length} outside it\n`,
  );
  for (const r of c.rows)
    process.stderr.write(
      `  ${r.metric.padEnd(30)} vLLM ${fmt(r.vllm).padStart(10)}  Tokenscope ${fmt(r.tokenscope).padStart(10)}  ${
        r.change === null ? ''.padStart(9) : `${(r.change * 100).toFixed(2)} %`.padStart(9)
      }  ${r.ci ? `[${(r.ci[0] * 100).toFixed(2)}, ${(r.ci[1] * 100).toFixed(2)}] %` : '(no interval)'}${r.inside === false ? '  OUTSIDE' : ''}\n`,
    );
}

function fmt(v: number | null): string {
  return v === null ? '—' : Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(3);
}
