/**
 * A run of agentic sessions (summary `tools.agentic`): sessions and steps, those the step cap
 * stopped while the model still called tools, and where a session's time went — on the server
 * (its steps' E2E), waiting on tools (the injected latency), and the rest (the client between
 * steps). TTFT and E2E by step are the by-step table (ByTurnTable.tsx).
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { int } from './summary-format.ts';
import { Count, StatsRow } from './StatsRow.tsx';

type Agentic = NonNullable<NonNullable<RunSummary['tools']>['agentic']>;

export interface SessionSplit {
  server: number;
  tools: number;
  other: number;
}

/**
 * Shares of all sessions' time (sums over sums, as toolWaitShare): the server's from the mean
 * server time over the mean session time (both over every session); null without session time.
 * @internal exported for its tests
 */
export function sessionSplit(a: Agentic): SessionSplit | null {
  const total = a.sessionMs?.mean ?? 0;
  if (!(total > 0) || a.toolWaitShare === null) return null;
  const tools = a.toolWaitShare;
  const server = Math.min(1 - tools, Math.max(0, (a.serverMs?.mean ?? 0) / total));
  return { server, tools, other: Math.max(0, 1 - server - tools) };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

function SplitBar({ split }: { split: SessionSplit }) {
  const parts = [
    { k: 'server', label: 'on the server', v: split.server },
    { k: 'tools', label: 'waiting on tools', v: split.tools },
    { k: 'other', label: 'between steps (client)', v: split.other },
  ];
  return (
    <div className="session-split" data-testid="sum-agentic-split">
      <div className="session-split-bar" aria-hidden="true">
        {parts.map((p) => (
          <span key={p.k} className={`part ${p.k}`} style={{ width: `${(p.v * 100).toFixed(2)}%` }} />
        ))}
      </div>
      <div className="session-split-legend">
        {parts.map((p) => (
          <span key={p.k} data-testid={`sum-agentic-share-${p.k}`}>
            <i className={`sw ${p.k}`} /> {p.label} {pct(p.v)}
          </span>
        ))}
      </div>
    </div>
  );
}

export function AgenticCard({ a }: { a: Agentic }) {
  const split = sessionSplit(a);
  return (
    <section className="card" aria-label="Agentic sessions">
      <header className="card-head">
        <h3 title="Each session: the model's tool call → the tool's result after the injected latency → the next step with the result appended, up to the step cap">
          Agentic sessions
        </h3>
        <span className="muted">
          session time: first step sent → last step ended · TTFT and E2E by step in the table below
        </span>
      </header>
      <dl className="run-counts tool-counts">
        <Count label="Sessions" value={int(a.sessions)} testId="sum-agentic-sessions" />
        <Count label="Steps" value={int(a.steps)} testId="sum-agentic-steps" />
        <Count label="Step cap" value={int(a.maxSteps)} />
        <Count
          label="Stopped at the cap"
          value={int(a.cappedSessions)}
          title="Sessions whose last step, at the cap, still called a tool"
          testId="sum-agentic-capped"
        />
      </dl>
      {split && <SplitBar split={split} />}
      <div className="table-scroll">
        <table className="run-table num" data-testid="sum-agentic-times">
          <thead>
            <tr>
              <th>ms per session</th>
              <th>p50</th>
              <th>p90</th>
              <th>p99</th>
              <th>max</th>
              <th>n</th>
            </tr>
          </thead>
          <tbody>
            <StatsRow
              name="session time"
              title="First step sent → last step ended"
              v={a.sessionMs}
              testId="sum-agentic-session"
            />
            <StatsRow
              name="on the server"
              title="The sum of the session's steps' E2E"
              v={a.serverMs}
              testId="sum-agentic-server"
            />
            <StatsRow
              name="waiting on tools"
              title="The sum of the tool latencies injected before the session's steps"
              v={a.toolWaitMs}
              testId="sum-agentic-tools"
            />
          </tbody>
        </table>
      </div>
    </section>
  );
}
