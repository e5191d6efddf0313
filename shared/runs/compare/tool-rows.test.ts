/** Comparison rows of tool calls and agentic sessions: values from each run's `tools`, absent (not 0) without. */
import { describe, expect, it } from 'vitest';
import type { MetricStats, RunSummary } from '../summary/schema.ts';
import { compareRows } from './compare.ts';
import { compareCell } from './export.ts';
import { summary } from '../../testing/test-summary.ts';

const st = (median: number, p99: number): MetricStats => ({
  count: 10,
  mean: median,
  median,
  std: 1,
  min: 1,
  max: p99,
  p90: p99,
  p95: p99,
  p99,
  p999: p99,
});

type Tools = NonNullable<RunSummary['tools']>;

function tools(ttft: number, failed: number, agentic?: Partial<NonNullable<Tools['agentic']>>): Tools {
  return {
    requests: 40,
    callingRequests: 32,
    errors: 1,
    calls: 32,
    finishToolCalls: 30,
    badJson: failed,
    schemaFailures: 0,
    unknownTool: 0,
    capped: 0,
    failureRate: failed / 32,
    ttftToolMs: st(ttft, ttft * 2),
    toolItlMs: st(20, 60),
    textItlMs: st(21, 50),
    argumentChars: st(400, 3000),
    ...(agentic
      ? {
          agentic: {
            sessions: 10,
            steps: 30,
            cappedSessions: 2,
            maxSteps: 4,
            sessionMs: st(3000, 9000),
            serverMs: st(2700, 8000),
            toolWaitMs: st(250, 400),
            toolWaitShare: 0.08,
            ...agentic,
          },
        }
      : {}),
  };
}

const run = (t?: Tools): RunSummary => ({
  ...summary({ tput: 1, ttft: [1, 2] }),
  ...(t ? { tools: t } : {}),
});

describe('tool-call comparison rows', () => {
  it('compare calls, the failure rate in points and the tool-call times, without verdicts', () => {
    const rows = compareRows([run(tools(40, 0)), run(tools(60, 4))]);
    const by = new Map(rows.map((r) => [r.def.id, r]));
    expect(by.get('tool-calls')?.def.group).toBe('Tool calls');
    expect(by.get('tool-finish')?.values).toEqual([30, 30]);
    expect(by.get('tool-fail-rate')?.values).toEqual([0, 12.5]);
    expect(by.get('tool-fail-rate')?.rel[1]).toBe(12.5);
    expect(by.get('tool-ttft-p50')?.values).toEqual([40, 60]);
    expect(by.get('tool-ttft-p99')?.values).toEqual([80, 120]);
    expect(by.get('tool-itl-p50')?.values).toEqual([20, 20]);
    expect(by.get('tool-text-itl-p50')?.values).toEqual([21, 21]);
    expect(rows.filter((r) => r.def.id.startsWith('tool-')).every((r) => r.verdict[1] === null)).toBe(true);
    // No agentic sessions on either side: no session rows.
    expect(rows.some((r) => r.def.id.startsWith('agentic-'))).toBe(false);
  });

  it('agentic runs add session time, its server and tool parts, the tool share and the capped sessions', () => {
    const rows = compareRows([
      run(tools(40, 0, {})),
      run(tools(40, 0, { toolWaitShare: 0.2, cappedSessions: 0 })),
    ]);
    const by = new Map(rows.map((r) => [r.def.id, r]));
    expect(by.get('agentic-session-p50')?.def.group).toBe('Agentic sessions');
    expect(by.get('agentic-session-p50')?.values).toEqual([3000, 3000]);
    expect(by.get('agentic-session-p99')?.values).toEqual([9000, 9000]);
    expect(by.get('agentic-server-p50')?.values).toEqual([2700, 2700]);
    expect(by.get('agentic-tools-p50')?.values).toEqual([250, 250]);
    expect(by.get('agentic-tool-share')?.values.map((v) => Math.round(v! * 10) / 10)).toEqual([8, 20]);
    expect(by.get('agentic-capped')?.values).toEqual([2, 0]);
  });

  it('a run without tools has no value, not 0; none on any side: no rows', () => {
    const rows = compareRows([run(tools(40, 1)), run()]);
    const ttft = rows.find((r) => r.def.id === 'tool-ttft-p50')!;
    expect(ttft.values).toEqual([40, null]);
    expect(compareCell(ttft, 1)).not.toMatch(/^0/);
    expect(compareRows([run(), run()]).some((r) => /^(tool|agentic)-/.test(r.def.id))).toBe(false);
  });
});
