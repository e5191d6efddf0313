/** The tool-call block of the text summary (tool-calls.ts says what each number means). */
import type { MetricStats, RunSummary } from './schema.ts';

const f2 = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : v.toFixed(2));
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const row = (label: string, value: string): string => `${label.padEnd(40)} ${value}`;
const stats = (m: MetricStats | null): string =>
  m ? `${f2(m.median)} / ${f2(m.p90)} / ${f2(m.p99)}` : '— (none)';

function agenticRows(a: NonNullable<NonNullable<RunSummary['tools']>['agentic']>): string[] {
  const L = [
    '------------Agentic sessions------------',
    row('Sessions / steps:', `${a.sessions} / ${a.steps} (at most ${a.maxSteps} steps)`),
    row('Session time p50/p90/p99 (ms):', stats(a.sessionMs)),
    row('  on the server p50/p90/p99 (ms):', stats(a.serverMs)),
    row('  waiting on tools p50/p90/p99 (ms):', stats(a.toolWaitMs)),
    row('Share of session time on tools:', a.toolWaitShare === null ? '—' : pct(a.toolWaitShare)),
  ];
  if (a.cappedSessions > 0)
    L.push(
      `note: ${a.cappedSessions} sessions stopped at the step cap (${a.maxSteps}) while still calling tools`,
    );
  return L;
}

/** Runs that offered tools: calls, their checks and times; else nothing. */
export function toolCallsSection(s: RunSummary): string[] {
  const t = s.tools;
  if (!t) return [];
  const L = [
    '---------------Tool Calls---------------',
    row('Requests with tools / with a call:', `${t.requests} / ${t.callingRequests}`),
    row('Tool calls:', `${t.calls} (finish reason tool_calls: ${t.finishToolCalls})`),
    row(
      'Failed calls (bad JSON/schema/unknown):',
      `${t.badJson} / ${t.schemaFailures} / ${t.unknownTool}` +
        (t.failureRate === null ? '' : ` (${pct(t.failureRate)} of calls)`),
    ),
    row('Transport errors (not calls):', String(t.errors)),
    row('First tool-call token p50/p90/p99 (ms):', stats(t.ttftToolMs)),
    row('Tool-call argument ITL p50/p90/p99 (ms):', stats(t.toolItlMs)),
    row('Text ITL p50/p90/p99 (ms):', stats(t.textItlMs)),
    row('Argument size p50/p90/p99 (chars):', stats(t.argumentChars)),
  ];
  if (t.capped > 0)
    L.push(`note: ${t.capped} calls' arguments exceeded the record's limit and were not checked`);
  if (t.agentic) L.push(...agenticRows(t.agentic));
  return L;
}
