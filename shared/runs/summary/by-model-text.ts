/**
 * A model-mix run's numbers by model (summary.byModel, by-model.ts) as text for `tokenscope run`
 * and the markdown report, and as the `--json` output's `by_model` entries (snake_case keys, ms,
 * per second, as the rest of that output).
 */
import type { RunSummary } from './schema.ts';

const f2 = (v: number | null | undefined): string =>
  v === null || v === undefined || Number.isNaN(v) ? '—' : v.toFixed(2);

/** Model names wider than this are cut with an ellipsis in the text table. */
const NAME_COLS = 18;

function cut(name: string): string {
  return name.length > NAME_COLS ? `${name.slice(0, NAME_COLS - 1)}…` : name;
}

/** One line per model: requests, failures, TTFT median/P99, ITL median, E2E median, output tok/s. */
export function byModelSection(s: RunSummary): string[] {
  if (!s.byModel) return [];
  const heading = '-'.repeat(14) + 'By Model (model mix)' + '-'.repeat(16);
  return [
    heading,
    `${'Model'.padEnd(NAME_COLS)}  Reqs  Fail  TTFT med  TTFT P99   ITL med   E2E med   Out tok/s`,
    ...s.byModel.map((r) =>
      [
        cut(r.model).padEnd(NAME_COLS),
        String(r.requests).padStart(5),
        String(r.failed).padStart(5),
        f2(r.ttft?.median).padStart(9),
        f2(r.ttft?.p99).padStart(9),
        f2(r.itl?.median).padStart(9),
        f2(r.e2el?.median).padStart(9),
        f2(r.outputThroughput).padStart(11),
      ].join(' '),
    ),
  ];
}

/** The `--json` output's `by_model` (absent for runs without a mix). */
export function byModelJson(s: RunSummary): { by_model?: Record<string, unknown>[] } {
  if (!s.byModel) return {};
  return {
    by_model: s.byModel.map((r) => ({
      model: r.model,
      requests: r.requests,
      failed: r.failed,
      share: r.share,
      request_throughput: r.requestThroughput,
      output_throughput: r.outputThroughput,
      total_output_tokens: r.totalOutputTokens,
      mean_ttft_ms: r.ttft?.mean ?? null,
      median_ttft_ms: r.ttft?.median ?? null,
      p99_ttft_ms: r.ttft?.p99 ?? null,
      mean_tpot_ms: r.tpot?.mean ?? null,
      median_itl_ms: r.itl?.median ?? null,
      p99_itl_ms: r.itl?.p99 ?? null,
      mean_e2el_ms: r.e2el?.mean ?? null,
      median_e2el_ms: r.e2el?.median ?? null,
      p99_e2el_ms: r.e2el?.p99 ?? null,
      errors: r.errors,
    })),
  };
}
