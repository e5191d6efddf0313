/**
 * A run's tool calls (workload `tools`, docs/numbers.md "Tool calls"), from its request lines:
 * - time to first tool-call token: from the request's start to its first content event carrying a
 *   tool-call delta (EV_TOOL: a function name or argument fragment), requests that made a call;
 * - tool-call ITL: gaps between consecutive tool-call events of a request (argument streaming),
 *   apart from the text ITL (gaps between consecutive content events without a tool delta);
 * - finish reason `tool_calls` (Anthropic `tool_use`), and each call's check: arguments that do not
 *   parse as JSON, that break the tool's schema, or name no offered tool. `failureRate` is failed
 *   calls over calls: a transport error (no answer) is not a call and is counted apart (`errors`).
 * - agentic sessions: steps, session time (first step's send → last step's end), and its split
 *   into time on the server (the steps' E2E) and waiting on tools (injected latency), and the
 *   sessions that stopped at the step cap while the model still called a tool.
 * Only successful requests count for times (as everywhere: shared/stats/summary.ts).
 */
import { EV_CONTENT, EV_TOOL } from '../../request.ts';
import { summarize } from '../../stats/summary.ts';
import type { RunRequestLine } from '../file/line-schema.ts';
import { finishedMs, requestOriginMs } from './outcome.ts';
import type { RunSummary } from './schema.ts';
import { toMetricStats } from './summary.ts';

type ToolSummary = NonNullable<RunSummary['tools']>;

interface SessionAcc {
  start: number;
  end: number;
  server: number;
  tool: number;
  steps: number;
  lastTurn: number;
  lastCalled: boolean;
}

/** Fed the run's measured, non-cancelled lines; null when none offered tools nor made a call. */
export class ToolTally {
  private requests = 0;
  private calling = 0;
  private errors = 0;
  private calls = 0;
  private finish = 0;
  private readonly checks = { 'bad-json': 0, schema: 0, 'unknown-tool': 0, capped: 0, ok: 0 };
  private readonly ttft: number[] = [];
  private readonly toolGaps: number[] = [];
  private readonly textGaps: number[] = [];
  private readonly argChars: number[] = [];
  private readonly sessions = new Map<number, SessionAcc>();

  constructor(private readonly maxSteps: number | null) {}

  add(line: RunRequestLine): void {
    if (this.maxSteps !== null && line.session !== undefined) this.step(line);
    const t = line.tools;
    if (!t) return;
    this.requests++;
    if (line.status !== 'ok') {
      this.errors++;
      return;
    }
    if (t.calls.length > 0) this.calling++;
    this.calls += t.calls.length;
    for (const c of t.calls) {
      this.checks[c.check]++;
      this.argChars.push(c.argumentChars);
    }
    if (line.finishReason === 'tool_calls' || line.finishReason === 'tool_use') this.finish++;
    this.times(line);
  }

  private times(line: RunRequestLine): void {
    const { t, f } = line.events;
    let lastTool = -1;
    let lastText = -1;
    for (let i = 0; i < t.length; i++) {
      const fl = f[i]!;
      if (!(fl & EV_CONTENT)) continue;
      if (fl & EV_TOOL) {
        if (lastTool < 0) this.ttft.push(t[i]!);
        else this.toolGaps.push(t[i]! - t[lastTool]!);
        lastTool = i;
      } else {
        if (lastText >= 0) this.textGaps.push(t[i]! - t[lastText]!);
        lastText = i;
      }
    }
  }

  private step(line: RunRequestLine): void {
    const k = line.session!;
    let s = this.sessions.get(k);
    if (!s) {
      s = { start: Infinity, end: 0, server: 0, tool: 0, steps: 0, lastTurn: 0, lastCalled: false };
      this.sessions.set(k, s);
    }
    s.start = Math.min(s.start, requestOriginMs(line));
    s.end = Math.max(s.end, finishedMs(line));
    s.server += line.phases.endMs ?? 0;
    s.tool += line.toolWaitMs ?? 0;
    s.steps++;
    if ((line.turn ?? 0) >= s.lastTurn) {
      s.lastTurn = line.turn ?? 0;
      s.lastCalled = line.status === 'ok' && (line.tools?.calls.length ?? 0) > 0;
    }
  }

  summary(): ToolSummary | null {
    if (this.requests === 0 && this.sessions.size === 0) return null;
    const failed = this.checks['bad-json'] + this.checks.schema + this.checks['unknown-tool'];
    const out: ToolSummary = {
      requests: this.requests,
      callingRequests: this.calling,
      errors: this.errors,
      calls: this.calls,
      finishToolCalls: this.finish,
      badJson: this.checks['bad-json'],
      schemaFailures: this.checks.schema,
      unknownTool: this.checks['unknown-tool'],
      capped: this.checks.capped,
      failureRate: this.calls > 0 ? failed / this.calls : null,
      ttftToolMs: toMetricStats(summarize(this.ttft)),
      toolItlMs: toMetricStats(summarize(this.toolGaps)),
      textItlMs: toMetricStats(summarize(this.textGaps)),
      argumentChars: toMetricStats(summarize(this.argChars)),
    };
    if (this.maxSteps !== null && this.sessions.size > 0) out.agentic = this.agentic(this.maxSteps);
    return out;
  }

  private agentic(maxSteps: number): NonNullable<ToolSummary['agentic']> {
    const ss = [...this.sessions.values()];
    const total = ss.reduce((a, s) => a + (s.end - s.start), 0);
    const tool = ss.reduce((a, s) => a + s.tool, 0);
    return {
      sessions: ss.length,
      steps: ss.reduce((a, s) => a + s.steps, 0),
      cappedSessions: ss.filter((s) => s.lastTurn >= maxSteps && s.lastCalled).length,
      maxSteps,
      sessionMs: toMetricStats(summarize(ss.map((s) => s.end - s.start))),
      serverMs: toMetricStats(summarize(ss.map((s) => s.server))),
      toolWaitMs: toMetricStats(summarize(ss.map((s) => s.tool))),
      toolWaitShare: total > 0 ? Math.min(1, tool / total) : null,
    };
  }
}
