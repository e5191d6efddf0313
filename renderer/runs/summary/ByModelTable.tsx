/**
 * A model-mix run's numbers by model (shared/runs/summary/by-model.ts): each model's or LoRA
 * adapter's TTFT, ITL and E2E, throughput and errors, side by side. Nothing for runs without a mix.
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { f2, int } from './summary-format.ts';

function errorsText(errors: Record<string, number>): string {
  const e = Object.entries(errors);
  return e.length === 0 ? '—' : e.map(([k, n]) => `${k} ×${n}`).join(', ');
}

export function ByModelTable({ s }: { s: RunSummary }) {
  const rows = s.byModel;
  if (!rows || rows.length === 0) return null;
  return (
    <section className="card" aria-label="Numbers by model">
      <header className="card-head">
        <h3 title="Each model's requests alone, under the run's own definitions; throughputs over the whole run's duration, so they add up to the run's">
          By model (ms)
        </h3>
        <span className="muted">model mix · successful requests · tok/s over the whole run</span>
      </header>
      <div className="table-scroll">
        <table className="run-table num" data-testid="sum-by-model">
          <thead>
            <tr>
              <th>model</th>
              <th>requests</th>
              <th>failed</th>
              <th>TTFT median</th>
              <th>TTFT p99</th>
              <th>ITL median</th>
              <th>ITL p99</th>
              <th>E2E median</th>
              <th>E2E p99</th>
              <th>req/s</th>
              <th>output tok/s</th>
              <th>errors</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.model} data-testid={`sum-model-${r.model}`}>
                <th scope="row" title={`${(r.share * 100).toFixed(1)} % of the requests`}>
                  {r.model}
                </th>
                <td>{int(r.requests)}</td>
                <td>{int(r.failed)}</td>
                <td>{f2(r.ttft?.median)}</td>
                <td>{f2(r.ttft?.p99)}</td>
                <td>{f2(r.itl?.median)}</td>
                <td>{f2(r.itl?.p99)}</td>
                <td>{f2(r.e2el?.median)}</td>
                <td>{f2(r.e2el?.p99)}</td>
                <td>{f2(r.requestThroughput)}</td>
                <td>{f2(r.outputThroughput)}</td>
                <td className="text">{errorsText(r.errors)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
