/**
 * A run that offered tools (summary `tools`, shared/runs/summary/tool-calls.ts; docs/numbers.md
 * "Tool calls"): how many answers called a tool, finish reason `tool_calls`, each call's check
 * (arguments that do not parse as JSON, break the tool's schema, or name no offered tool — a
 * failure rate over calls, transport errors counted apart), the time to the first tool-call token
 * and the gaps between argument deltas apart from text; agentic sessions below (AgenticCard.tsx).
 * Nothing for runs without tools.
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { AgenticCard } from './AgenticCard.tsx';
import { int } from './summary-format.ts';
import { Count, StatsRow } from './StatsRow.tsx';

type Tools = NonNullable<RunSummary['tools']>;

const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);

/** Calls and their checks, as counts. */
function CallCounts({ t }: { t: Tools }) {
  const failed = t.badJson + t.schemaFailures + t.unknownTool;
  return (
    <dl className="run-counts tool-counts">
      <Count label="Tool calls" value={int(t.calls)} testId="sum-tools-calls" />
      <Count
        label="Finish tool_calls"
        value={int(t.finishToolCalls)}
        title="Answers whose finish reason was tool_calls (Anthropic: tool_use)"
        testId="sum-tools-finish"
      />
      <Count
        label="Bad JSON"
        value={int(t.badJson)}
        tone={t.badJson > 0 ? 'bad' : undefined}
        title="Arguments that do not parse as JSON"
        testId="sum-tools-bad-json"
      />
      <Count
        label="Schema"
        value={int(t.schemaFailures)}
        tone={t.schemaFailures > 0 ? 'bad' : undefined}
        title="Arguments that parse but break the tool's parameters schema"
        testId="sum-tools-schema"
      />
      <Count
        label="Unknown tool"
        value={int(t.unknownTool)}
        tone={t.unknownTool > 0 ? 'bad' : undefined}
        title="Calls naming no tool the request offered"
        testId="sum-tools-unknown"
      />
      <Count
        label="Failure rate"
        value={pct(t.failureRate)}
        tone={failed > 0 ? 'bad' : t.calls > 0 ? 'ok' : undefined}
        title="(bad JSON + schema + unknown tool) / calls"
        testId="sum-tools-failure-rate"
      />
      <Count
        label="Transport errors"
        value={int(t.errors)}
        tone={t.errors > 0 ? 'bad' : undefined}
        title="Requests with tools that failed in transport: no answer, so no call; not in the failure rate"
        testId="sum-tools-errors"
      />
    </dl>
  );
}

function ToolTimes({ t }: { t: Tools }) {
  return (
    <div className="table-scroll">
      <table className="run-table num" data-testid="sum-tools-times">
        <thead>
          <tr>
            <th>ms</th>
            <th>p50</th>
            <th>p90</th>
            <th>p99</th>
            <th>max</th>
            <th>n</th>
          </tr>
        </thead>
        <tbody>
          <StatsRow
            name="first tool-call token"
            title="Request start → the first content event carrying a tool-call delta (a name or an argument fragment); requests that made a call"
            v={t.ttftToolMs}
            testId="sum-tools-ttft"
          />
          <StatsRow
            name="argument ITL"
            title="Gaps between a request's consecutive tool-call events: the arguments streaming"
            v={t.toolItlMs}
            testId="sum-tools-itl"
          />
          <StatsRow
            name="text ITL"
            title="Gaps between the same requests' other content events (text, reasoning)"
            v={t.textItlMs}
            testId="sum-tools-text-itl"
          />
        </tbody>
      </table>
    </div>
  );
}

export function ToolCallsCard({ s }: { s: RunSummary }) {
  const t = s.tools;
  if (!t) return null;
  const a = t.argumentChars;
  return (
    <>
      <section className="card" aria-label="Tool calls">
        <header className="card-head">
          <h3 title="Requests that offered tools (workload tools): their calls, the calls' checks against the tools' schemas, and the tool-call stream's timing">
            Tool calls
          </h3>
          <span className="muted" data-testid="sum-tools-head">
            {int(t.requests)} requests offered tools · {int(t.callingRequests)} answered with a call
            {a ? ` · arguments p50 ${int(a.median)} chars, max ${int(a.max)}` : ''}
          </span>
        </header>
        <CallCounts t={t} />
        {t.capped > 0 && (
          <p className="muted" data-testid="sum-tools-capped">
            {int(t.capped)} calls&apos; arguments exceeded the record&apos;s limit and were not checked.
          </p>
        )}
        <ToolTimes t={t} />
      </section>
      {t.agentic && <AgenticCard a={t.agentic} />}
    </>
  );
}
