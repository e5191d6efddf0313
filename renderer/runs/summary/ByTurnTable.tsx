/**
 * A multi-turn run's latency by turn (shared/runs/summary/by-turn.ts): turn 1 against later turns, which
 * resend the conversation so far and so show what the server's prefix cache saves. Nothing for
 * single-request runs. An agentic run's steps are its turns (each resends the conversation with the
 * tool calls and their results): the table says "step".
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { turnLabel } from '../../../shared/runs/summary/by-turn.ts';
import { f2, int } from './summary-format.ts';

export function ByTurnTable({ s }: { s: RunSummary }) {
  const rows = s.byTurn;
  if (!rows || rows.length === 0) return null;
  const unit = s.tools?.agentic ? 'step' : 'turn';
  return (
    <section className="card" aria-label={`Latency by ${unit}`}>
      <header className="card-head">
        <h3
          title={`Each ${unit} resends the earlier ${unit}s and their answers${unit === 'step' ? ' (tool calls and results)' : ''}: with a prefix cache, later ${unit}s prefill only what is new`}
        >
          By {unit} (ms)
        </h3>
        <span className="muted">
          {unit === 'step' ? 'agentic' : 'multi-turn'} sessions · successful requests · the last row pools
          later {unit}s
        </span>
      </header>
      <div className="table-scroll">
        <table className="run-table num" data-testid="sum-by-turn">
          <thead>
            <tr>
              <th>{unit}</th>
              <th>requests</th>
              <th>failed</th>
              <th title="Mean prompt tokens: the conversation so far">input tokens</th>
              <th>TTFT mean</th>
              <th>TTFT median</th>
              <th>TTFT p99</th>
              <th>E2E mean</th>
              <th>E2E median</th>
              <th>E2E p99</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.turn} data-testid={`sum-turn-${turnLabel(r)}`}>
                <th scope="row">{turnLabel(r)}</th>
                <td>{int(r.requests)}</td>
                <td>{int(r.failed)}</td>
                <td>{r.meanInputTokens === null ? '—' : int(Math.round(r.meanInputTokens))}</td>
                <td>{f2(r.ttft?.mean)}</td>
                <td>{f2(r.ttft?.median)}</td>
                <td>{f2(r.ttft?.p99)}</td>
                <td>{f2(r.e2e?.mean)}</td>
                <td>{f2(r.e2e?.median)}</td>
                <td>{f2(r.e2e?.p99)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
