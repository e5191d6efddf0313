/**
 * A run as a comparison takes it (the CLI's `compare` and `report`, the core's report builder):
 * its summary and outcomes, how to re-derive it under other definitions, and the definitions a
 * set of runs is compared under (natives re-derived from their events, imports as measured).
 */
import type { DefinitionsId } from '../summary/definitions.ts';
import { poolRuns } from './pooled.ts';
import { comparisonDefinitions, type Rederived } from '../summary/rederive.ts';
import type { RequestOutcome } from '../summary/outcome.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import type { RunSummary } from '../summary/schema.ts';

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
  /** Native run files: every request line (warm-up included), for a report's timeline and swimlane. */
  lines?: readonly RunRequestLine[] | null;
  /** Lines skipped or repaired when the file was read. */
  problems?: readonly string[];
  /** Pooled repeats: the runs pooled (their run-to-run spread). */
  parts?: readonly LoadedRun[];
}

/**
 * Repeats of one workload as one compared column (shared/runs/compare/pooled.ts): their requests pooled,
 * re-derivable when every part is; `file` names the column. A string when a part has no
 * per-request data to pool.
 */
export function poolLoaded(runs: readonly LoadedRun[], file: string): LoadedRun | string {
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
  const base = (f: string) => f.split(/[\\/]/).pop() ?? f;
  const notes = runs.filter((r) => r.note).map((r) => `${base(r.file)}: ${r.note}`);
  return {
    file,
    label: `${first.label.replace(/ · repeat \d+\/\d+$/, '')} (${runs.length} repeats pooled)`,
    model: first.model,
    url: first.url,
    header: first.header,
    summary: pooled.summary,
    outcomes: pooled.outcomes,
    strata: pooled.strata,
    note: notes.length ? notes.join('; ') : null,
    parts: runs,
    ...(rederive ? { rederive } : {}),
  };
}
