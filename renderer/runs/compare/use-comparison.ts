/**
 * The comparison's state, derived once per change: the runs read, their columns (repeats pooled),
 * the definitions they are compared under (re-derived where needed), the rows with their 95 %
 * intervals (computed in slices after the table is drawn), the failure banner, workload
 * differences, run-to-run spreads and the CDFs' pooled values.
 */
import { useEffect, useMemo, useState } from 'react';
import type { RunDetail } from '../../../shared/runs-api.ts';
import type { RequestOutcome } from '../../../shared/runs/summary/outcome.ts';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';

import {
  compareIntervalsAsync,
  comparisonVerdicts,
  modelIntervalsAsync,
  type CompareIntervals,
} from './run-compare.ts';
import { outcomesOf } from '../summary/run-detail.ts';
import { poolRuns, repeatSpread } from '../../../shared/runs/compare/pooled.ts';
import { MAX_COMPARED, SAME_WITHIN } from '../../../shared/runs/compare/compare.ts';
import { type DefinitionsId } from '../../../shared/runs/summary/definitions.ts';
import {
  clientsNote,
  comparisonDefinitions,
  definitionsLine,
  rederiveRun,
} from '../../../shared/runs/summary/rederive.ts';
import { cdfsOf } from '../../../shared/runs/summary/distributions.ts';
import { useRunsStore } from '../run-store.ts';
import { LETTERS } from '../../../shared/runs/letters.ts';

/** Consecutive runs of one repeat group are one column; every other run its own. */
function repeatColumns(details: readonly RunDetail[]): RunDetail[][] {
  const out: RunDetail[][] = [];
  for (const d of details) {
    const g = d.header?.repeat?.group;
    const last = out[out.length - 1];
    if (g && last && last[0]!.header?.repeat?.group === g) last.push(d);
    else out.push([d]);
  }
  return out.slice(0, MAX_COMPARED);
}

/** A column's name: the run's, or for pooled repeats the name without " · repeat k/N". */
function columnName(col: readonly RunDetail[]): string {
  const name = col[0]!.entry.name || 'Load run';
  return col.length > 1 ? `${name.replace(/ · repeat \d+\/\d+$/, '')} (${col.length} repeats pooled)` : name;
}

/**
 * Whose per-request rules the runs are compared under, and each column's summary and outcomes
 * under them (re-derived, repeats pooled); `error` says why the definitions asked for were refused.
 */
function comparisonUnder(columns: readonly RunDetail[][], askedDefs: DefinitionsId | undefined) {
  const canRederive = (d: RunDetail) => d.lines !== null && d.header !== null;
  const fixed = columns.map((col) =>
    col.every(canRederive) ? null : (col[0]!.summary.definitions ?? 'tokenscope'),
  );
  let c = comparisonDefinitions(fixed, askedDefs);
  let refused: string | null = null;
  if (typeof c === 'string') {
    refused = c;
    c = comparisonDefinitions(fixed, undefined);
  }
  if (typeof c === 'string') return { error: c, definitions: null, runs: null, line: null };
  const defs = c.definitions;
  const one = (d: RunDetail) =>
    !canRederive(d) || (defs === 'tokenscope' && (d.summary.definitions ?? 'tokenscope') === 'tokenscope')
      ? { summary: d.summary, outcomes: outcomesOf(d), rederived: false }
      : { ...rederiveRun(d.header!, d.lines!, d.summary, defs), rederived: true };
  const runsUnder = columns.map((col) => {
    const parts = col.map(one);
    if (parts.length === 1) return { ...parts[0]!, strata: null as number[] | null, parts: null };
    const pooled = poolRuns(parts.map((p, i) => ({ header: col[i]!.header, ...p })));
    return {
      summary: pooled.summary,
      outcomes: pooled.outcomes,
      strata: pooled.strata,
      rederived: parts.some((p) => p.rederived),
      parts: parts.map((p) => p.summary),
    };
  });
  return {
    error: refused,
    definitions: defs,
    runs: runsUnder,
    line: definitionsLine(
      defs,
      runsUnder.map((r) => r.rederived),
      c.defaulted,
    ),
  };
}

type ComparisonUnder = ReturnType<typeof comparisonUnder>;

/**
 * 95 % bootstrap intervals: computed in slices after the table is drawn (large runs take a second);
 * `ci` is null until those of the current outcomes are in.
 */
function useIntervals({
  ready,
  columns,
  summaries,
  outcomes,
  under,
}: {
  ready: boolean;
  columns: readonly RunDetail[][];
  summaries: readonly RunSummary[];
  outcomes: readonly (readonly RequestOutcome[])[];
  under: ComparisonUnder | null;
}) {
  const [intervals, setIntervals] = useState<{ of: readonly unknown[]; ci: CompareIntervals | null }>({
    of: [],
    ci: null,
  });
  useEffect(() => {
    if (!ready) return;
    const ctl = new AbortController();
    const input = columns.map((col, i) => ({
      summary: summaries[i]!,
      outcomes: col.every((d) => d.lines || (d.outcomes && d.outcomes.length > 0)) ? outcomes[i]! : null,
      strata: under?.runs?.[i]?.strata ?? null,
    }));
    // Model mixes: each model's rows get intervals from its own requests (in the same map).
    Promise.all([
      compareIntervalsAsync(input, { signal: ctl.signal }),
      modelIntervalsAsync(input, { signal: ctl.signal }),
    ]).then(
      ([ci, byModel]) => setIntervals({ of: outcomes, ci: new Map([...ci, ...byModel]) }),
      () => undefined, // aborted: another comparison (or other definitions) replaced this one
    );
    return () => ctl.abort();
  }, [ready, columns, outcomes, summaries, under]);
  return { intervals, ci: intervals.of === outcomes ? intervals.ci : null };
}

export function useComparison() {
  const compared = useRunsStore((s) => s.compared);
  const runs = useRunsStore((s) => s.runs);
  const details = useMemo(
    () => (compared?.details ?? []).filter((d): d is RunDetail => d !== null),
    [compared?.details],
  );
  const ready = compared !== null && !compared.loading && details.length === compared.keys.length;
  // Repeats of one workload (a run sequence with "Repeat") are one column: their runs pooled.
  const columns = useMemo(() => (ready ? repeatColumns(details) : []), [ready, details]);
  // Whose per-request rules the runs are compared under: asked here, else the imported results'
  // (a vLLM result makes it vLLM's), else Tokenscope's. Native runs are re-derived from their events.
  const [askedDefs, setAskedDefs] = useState<DefinitionsId | undefined>(undefined);
  const under = useMemo(
    () => (ready ? comparisonUnder(columns, askedDefs) : null),
    [ready, columns, askedDefs],
  );
  const summaries = useMemo(
    () => under?.runs?.map((r) => r.summary) ?? columns.map((c) => c[0]!.summary),
    [under, columns],
  );
  const outcomes = useMemo(
    () => (ready ? (under?.runs?.map((r) => r.outcomes) ?? columns.map((c) => outcomesOf(c[0]!))) : []),
    [ready, under, columns],
  );
  // Runs measured by different clients (an import beside a Tokenscope run): said, with what it does to TTFT.
  const clients = useMemo(() => clientsNote(summaries), [summaries]);
  const { intervals, ci } = useIntervals({ ready, columns, summaries, outcomes, under });
  // The equivalence margin (`--same-within`): "same" when a change's whole interval lies within it.
  const [sameWithin, setSameWithin] = useState(SAME_WITHIN);
  const { rows, banner, anyUnreliable, diffs, byModel } = useMemo(
    () =>
      ready
        ? comparisonVerdicts(
            summaries,
            columns.map((c) => c[0]!.header),
            ci,
            sameWithin,
          )
        : { rows: [], banner: null, anyUnreliable: false, diffs: [], byModel: null },
    [ready, summaries, columns, ci, sameWithin],
  );
  const labels = useMemo(
    () =>
      columns.map((c) => ({
        label: columnName(c),
        model: c[0]!.entry.model,
        url: c[0]!.entry.url,
      })),
    [columns],
  );
  const spreads = useMemo(
    () =>
      (under?.runs ?? []).map((r, i) =>
        r.parts && r.parts.length > 1
          ? { letter: LETTERS[i] as string, name: labels[i]!.label, rows: repeatSpread(r.parts) }
          : null,
      ),
    [under, labels],
  );
  // Each metric's values pooled and sorted once per comparison, not on every render (ITL pools
  // every token gap of every request).
  const cdfs = useMemo(() => cdfsOf(outcomes, summaries), [outcomes, summaries]);
  return {
    compared,
    runs,
    ready,
    columns,
    under,
    clients,
    ci,
    rows,
    banner,
    anyUnreliable,
    diffs,
    byModel,
    labels,
    spreads,
    cdfs,
    setAskedDefs,
    intervals,
    sameWithin,
    setSameWithin,
  };
}

/** Everything the comparison view shows (its parts take theirs by name: `Comparison['labels']`). */
export type Comparison = ReturnType<typeof useComparison>;
