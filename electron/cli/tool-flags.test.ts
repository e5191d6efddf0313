import { describe, expect, it } from 'vitest';
import { applyToolOverrides } from './tool-flags.ts';

describe('run flags for tools', () => {
  it('--tools, --tool-choice, --agentic-steps and --tool-latency set the workload', () => {
    const w: Record<string, unknown> = { tools: { definitions: [] } };
    applyToolOverrides(w, { tools: true, toolChoice: 'get_weather', agenticSteps: 5, toolLatency: '10-20' });
    expect(w).toEqual({
      prompts: { type: 'tools' },
      tools: {
        definitions: [],
        choice: { name: 'get_weather' },
        agentic: { maxSteps: 5, toolLatencyMs: { type: 'uniform', minMs: 10, maxMs: 20 } },
      },
    });
    const v: Record<string, unknown> = {};
    applyToolOverrides(v, { tools: 'my.jsonl', toolChoice: 'required', toolLatency: 'exp:50' });
    expect(v).toEqual({
      prompts: { type: 'tools', path: 'my.jsonl' },
      tools: { choice: 'required', agentic: { toolLatencyMs: { type: 'exponential', meanMs: 50 } } },
    });
  });
});
