/**
 * The simulator's tool calls over loopback, read back by the engine (real HTTP, the dialect
 * decoders, the record): in each dialect that has them, the streamed arguments put together are
 * JSON that fits the tool's schema; `tool_choice: none` answers with text; fault bad-tool-json
 * gives arguments that do not parse, classified apart from transport errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectId } from '../../shared/dialects.ts';
import { EV_TOOL, type RequestSpec } from '../../shared/request.ts';
import { checkToolCall, type ToolSpec } from '../../shared/tool-calls.ts';
import { BUILTIN_TOOL_DATASET } from '../../shared/runs/workload/tool-dataset.ts';
import { fireRequest } from './client.ts';
import { io } from './io/io-engine.ts';
import { startSim, type SimServer } from '../sim/index.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({
    port: 0,
    decodeStepMs: 1,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
    toolCallShare: 1,
  });
});
afterAll(async () => {
  await sim.close();
  await io().close();
});

const report = BUILTIN_TOOL_DATASET.find((l) => l.tools.some((t) => t.name === 'write_report'))!.tools;
const tools: ToolSpec[] = report;

function spec(dialect: DialectId, over: Partial<RequestSpec> = {}): RequestSpec {
  return {
    url: sim.url,
    dialect,
    model: 'tokenscope-sim',
    prompt: 'Write the report.',
    params: { maxTokens: 40, ignoreEos: true },
    tools,
    toolChoice: 'required',
    timeoutMs: 10_000,
    ...over,
  };
}

const DIALECTS: DialectId[] = ['openai-chat', 'anthropic-messages', 'openai-responses'];

describe('the simulator answers with tool calls', () => {
  it.each(DIALECTS)(
    '%s: one call, its arguments JSON that fits the schema, streamed in fragments',
    async (d) => {
      const rec = await fireRequest(spec(d));
      expect(rec.error).toBeNull();
      expect(rec.toolCalls).toHaveLength(1);
      const call = rec.toolCalls![0]!;
      expect(call.id).not.toBe('');
      expect(tools.map((t) => t.name)).toContain(call.name);
      expect(checkToolCall(call, tools)).toMatchObject({ check: 'ok' });
      expect(rec.finishReason).toBe(d === 'anthropic-messages' ? 'tool_use' : 'tool_calls');
      expect(rec.text).toBe('');
      // 40 tokens at one a step: many argument events, each flagged.
      const flags = Array.from(rec.events.flags.subarray(0, rec.events.n));
      expect(flags.filter((f) => f & EV_TOOL).length).toBeGreaterThan(10);
    },
  );

  it.each(DIALECTS)('%s: tool_choice none answers with text', async (d) => {
    const rec = await fireRequest(spec(d, { toolChoice: 'none' }));
    expect(rec.error).toBeNull();
    expect(rec.toolCalls).toBeUndefined();
    expect(rec.text.length).toBeGreaterThan(0);
  });

  it.each(DIALECTS)(
    '%s: fault bad-tool-json streams arguments that do not parse (no transport error)',
    async (d) => {
      const rec = await fireRequest(spec(d, { headers: { 'x-sim-fault': 'bad-tool-json' } }));
      expect(rec.error).toBeNull();
      expect(checkToolCall(rec.toolCalls![0]!, tools)).toMatchObject({ check: 'bad-json' });
    },
  );
});
