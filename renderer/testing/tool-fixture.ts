/** Test fixtures: a run's tool-call summary, from request lines through the core's own ToolTally. */
import { EV_CONTENT, EV_TOOL } from '../../shared/request.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { RunSummary } from '../../shared/runs/summary/schema.ts';
import { ToolTally } from '../../shared/runs/summary/tool-calls.ts';

const TOOL = EV_CONTENT | EV_TOOL;
type Check = 'ok' | 'bad-json' | 'schema';

/** A request line of an agentic session: its send, E2E, events as [time, flags], calls and finish. */
function step(
  session: number,
  turn: number,
  sentMs: number,
  endMs: number,
  events: [number, number][],
  checks: Check[],
  toolWaitMs?: number,
): RunRequestLine {
  return {
    status: 'ok',
    session,
    turn,
    sentMs,
    startedMs: sentMs,
    ...(toolWaitMs !== undefined ? { toolWaitMs } : {}),
    phases: { endMs },
    events: { t: events.map((e) => e[0]), tok: events.map(() => 1), f: events.map((e) => e[1]) },
    finishReason: checks.length > 0 ? 'tool_calls' : 'stop',
    tools: { offered: 1, calls: checks.map((check) => ({ name: 'get_weather', argumentChars: 40, check })) },
  } as RunRequestLine;
}

/**
 * Two agentic sessions of at most 2 steps (the second stopped at the cap), 3 calls (one bad JSON,
 * one breaking the schema) and a request failed in transport, summed as the core sums a run.
 */
export function toolSummary(): NonNullable<RunSummary['tools']> {
  const tally = new ToolTally(2);
  tally.add(
    step(
      0,
      1,
      0,
      300,
      [
        [50, TOOL],
        [70, TOOL],
        [100, TOOL],
      ],
      ['ok'],
    ),
  );
  tally.add(
    step(
      0,
      2,
      400,
      200,
      [
        [30, EV_CONTENT],
        [40, EV_CONTENT],
        [60, EV_CONTENT],
      ],
      [],
      100,
    ),
  );
  tally.add(
    step(
      1,
      1,
      0,
      500,
      [
        [20, EV_CONTENT],
        [80, TOOL],
        [120, TOOL],
      ],
      ['bad-json'],
    ),
  );
  // At the cap (2 steps) and still calling: stopped by the cap.
  tally.add(
    step(
      1,
      2,
      700,
      100,
      [
        [40, TOOL],
        [55, TOOL],
      ],
      ['schema'],
      150,
    ),
  );
  // Failed in transport: no call, not in the failure rate.
  tally.add({ status: 'error', phases: {}, tools: { offered: 1, calls: [] } } as unknown as RunRequestLine);
  return tally.summary()!;
}
