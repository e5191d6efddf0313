/**
 * A comparison by model (shared/runs/compare/by-model.ts): where the compared runs had model mixes,
 * each model's failure rate, throughput and TTFT/ITL/E2E p50 and p99 side by side, with the same
 * changes, intervals and verdicts as the overall table (its rows, CompareTable.tsx). A model only
 * some runs sent says so in its heading. Nothing when no run had a mix.
 */
import { LETTERS } from '../../../shared/runs/letters.ts';
import { UNRELIABLE_NOTE } from '../../../shared/runs/compare/export.ts';
import { CompareHead, CompareTableRow } from './CompareTable.tsx';
import type { ModelComparison } from './run-compare.ts';
import type { Comparison } from './use-comparison.ts';

export function ByModelCompare({
  labels,
  byModel,
}: {
  labels: Comparison['labels'];
  byModel: ModelComparison | null;
}) {
  if (!byModel || byModel.models.length === 0) return null;
  const rows = byModel.models.flatMap((m) => m.rows);
  const noMix = byModel.noMix.map((i) => LETTERS[i]).join(', ');
  return (
    <section className="card compare-by-model" aria-label="Numbers by model" data-testid="compare-by-model">
      <header className="card-head">
        <h3 title="Each model's (or LoRA adapter's) requests alone; intervals resample them alone, so a model's tail has fewer requests than the run's">
          By model
        </h3>
        <span className="muted">
          model mix · each model&apos;s requests alone · throughput over the whole run, a share without a
          verdict
          {noMix && ` · ${noMix}: no model mix`}
          {byModel.more > 0 && ` · ${byModel.more} more models not compared`}
        </span>
      </header>
      <div className="table-scroll">
        <table className="run-table num compare-table" data-testid="compare-by-model-table">
          <CompareHead first="model · metric" runs={labels.length} />
          <tbody>
            {rows.map((r) => (
              <CompareTableRow key={r.def.id} row={r} />
            ))}
          </tbody>
        </table>
      </div>
      {rows.some((r) => r.unreliable.some(Boolean)) && <p className="muted caption">{UNRELIABLE_NOTE}</p>}
    </section>
  );
}
