/** The simulator's tool-call plan and argument fragments (the wire: engine/tool-calls-sim.test.ts). */
import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../shared/tool-calls.ts';
import { BUILTIN_TOOL_DATASET } from '../../shared/runs/workload/tool-dataset.ts';
import { ArgumentStream, planToolCall } from './tool-calls.ts';

const tools: ToolSpec[] = BUILTIN_TOOL_DATASET.find((l) =>
  l.tools.some((t) => t.name === 'write_report'),
)!.tools;

describe('planToolCall and ArgumentStream', () => {
  it('auto picks a call for about the share of requests, arguments sized to the tokens', () => {
    let calls = 0;
    for (let i = 0; i < 400; i++)
      if (
        planToolCall(tools, 'auto', {
          seed: i,
          requestId: `r${i}`,
          share: 0.25,
          totalTokens: 10,
          badJson: false,
        })
      )
        calls++;
    expect(calls).toBeGreaterThan(60);
    expect(calls).toBeLessThan(140);
    const small = planToolCall(
      tools,
      { name: 'write_report' },
      { seed: 1, requestId: 'a', share: 0, totalTokens: 10, badJson: false },
    )!;
    const large = planToolCall(
      tools,
      { name: 'write_report' },
      { seed: 1, requestId: 'a', share: 0, totalTokens: 400, badJson: false },
    )!;
    expect(large.arguments.length).toBeGreaterThan(small.arguments.length * 10);
  });

  it('the fragments add up to the arguments, the rest at the end', () => {
    const call = { id: 'c', name: 'f', arguments: '{"a":"' + 'x'.repeat(97) + '"}', totalTokens: 10 };
    const s = new ArgumentStream(call);
    let out = '';
    for (let i = 0; i < 6; i++) out += s.next(1, false);
    expect(out.length).toBeLessThan(call.arguments.length);
    out += s.next(1, true);
    expect(out).toBe(call.arguments);
  });
});
