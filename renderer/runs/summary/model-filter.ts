/**
 * The run view's charts for one model of a model mix (ModelFilter.tsx): the over-time series, the
 * swimlane and the histograms drawn from that model's requests alone — each request line names
 * its model (`model`, outcome.ts carries it on) — on the whole run's time axis, so a model's
 * throughput sits where it happened. The tables above stay the whole run's (by model: the by-model
 * table). Lines of files written before mixes name no model: such runs have no mix, no filter.
 */
import { useMemo, useState } from 'react';
import type { RunDetail } from '../../../shared/runs-api.ts';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { LaneStore } from '../live/lane-store.ts';
import { concurrencySeries, throughputSeries } from '../charts/run-series.ts';
import { histogramsOf, type DerivedRun } from './run-detail.ts';

/**
 * The run's charts' data for `model` (null: every model, the run as derived).
 * @internal exported for its tests
 */
export function derivedForModel(d: RunDetail, all: DerivedRun, model: string | null): DerivedRun {
  if (model === null) return all;
  const outcomes = all.outcomes.filter((o) => o.model === model);
  let lanes: LaneStore | null = null;
  if (d.lines) {
    lanes = new LaneStore();
    lanes.loadLines(
      `${d.entry.key}#${model}`,
      d.lines.filter((l) => l.model === model),
    );
    if (lanes.n === 0) lanes = null;
  }
  // The whole run's end: the same time axis whichever model is shown.
  const end = all.lanes ? all.lanes.lastMs : 0;
  return {
    outcomes,
    lanes,
    throughput: lanes ? throughputSeries(lanes, end, true) : [],
    concurrency: lanes ? concurrencySeries(lanes, end) : [],
    xMax: all.xMax,
    ...histogramsOf(outcomes),
  };
}

/** The models a run's charts can be filtered by: its by-model rows' (two or more), else none. */
function filterModels(s: RunSummary): string[] {
  const rows = s.byModel ?? [];
  return rows.length > 1 ? rows.map((r) => r.model) : [];
}

/** The model picked for this run's charts (back to all models when another run is opened). */
export function useModelFilter(d: RunDetail, s: RunSummary, all: DerivedRun) {
  const [picked, setPicked] = useState<{ key: string; model: string } | null>(null);
  const models = filterModels(s);
  const model = picked && picked.key === d.entry.key && models.includes(picked.model) ? picked.model : null;
  const shown = useMemo(() => derivedForModel(d, all, model), [d, all, model]);
  const pick = (m: string | null) => setPicked(m === null ? null : { key: d.entry.key, model: m });
  return { models, model, pick, shown };
}
