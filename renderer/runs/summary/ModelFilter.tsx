/**
 * "Charts for: All models / one model" above a model-mix run's charts (model-filter.ts): the
 * throughput and concurrency over time, the swimlane and the histograms then show that model's
 * requests alone. Nothing for runs without a mix.
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';

const ALL_MODELS = '';

export function ModelFilter({
  s,
  models,
  value,
  onChange,
  shownRequests,
}: {
  s: RunSummary;
  models: readonly string[];
  value: string | null;
  onChange: (model: string | null) => void;
  /** Requests the charts below draw (the picked model's, or all). */
  shownRequests: number;
}) {
  if (models.length === 0) return null;
  const share = (m: string) => s.byModel?.find((r) => r.model === m)?.share ?? 0;
  const all = s.byModel?.reduce((a, r) => a + r.requests, 0) ?? 0;
  return (
    <section
      className="card row gap wrap run-defs"
      aria-label="Charts by model"
      data-testid="run-model-filter"
      data-model={value ?? 'all'}
      data-requests={shownRequests}
    >
      <label className="muted">
        Charts for{' '}
        <select
          data-testid="run-model-filter-select"
          value={value ?? ALL_MODELS}
          onChange={(e) => onChange(e.target.value === ALL_MODELS ? null : e.target.value)}
          title="Draw the charts below from one model's requests alone (model mix)"
        >
          <option value={ALL_MODELS}>All models</option>
          {models.map((m) => (
            <option key={m} value={m}>
              {m} ({(share(m) * 100).toFixed(0)} %)
            </option>
          ))}
        </select>
      </label>
      <span className="muted" data-testid="run-model-filter-note">
        {value === null
          ? `over time, swimlane and histograms: all ${all.toLocaleString('en-US')} requests`
          : `over time, swimlane and histograms: ${value}'s ${shownRequests.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} requests · the tables above are the whole run's`}
      </span>
    </section>
  );
}
