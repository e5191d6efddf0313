import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_DATASET } from '../../../shared/runs/workload/tool-dataset.ts';
import { ToolDatasetLine } from '../../../shared/runs/workload/tools.ts';
import { loadToolPrompts, parseToolDataset } from './tool-prompts.ts';

describe('tools datasets', () => {
  it('the built-in one passes its own schema, with small and large argument sizes', async () => {
    for (const l of BUILTIN_TOOL_DATASET) expect(ToolDatasetLine.safeParse(l).success).toBe(true);
    const outs = BUILTIN_TOOL_DATASET.map((l) => l.output_len!);
    expect(Math.min(...outs)).toBeLessThanOrEqual(32);
    expect(Math.max(...outs)).toBeGreaterThanOrEqual(512);
    const p = await loadToolPrompts({ type: 'tools', force: 'none' }, 0, '.');
    expect(p.size).toBe(BUILTIN_TOOL_DATASET.length);
    expect(p.at(0).tools!.length).toBeGreaterThan(0);
  });

  it("a user's JSONL: lines read, bad ones named by number and field", () => {
    const good = JSON.stringify({
      prompt: 'p',
      tools: [{ name: 'f', parameters: { type: 'object' } }],
      output_len: 9,
    });
    expect(parseToolDataset(`${good}\n\n${good}\n`, 'f.jsonl')).toHaveLength(2);
    const noTools = JSON.stringify({ prompt: 'p' });
    const badName = JSON.stringify({ prompt: 'p', tools: [{ name: 'a b', parameters: {} }] });
    expect(() => parseToolDataset(`${good}\n${noTools}\n{x\n${badName}`, 'f.jsonl')).toThrow(
      /line 2: tools: .*; line 3: not JSON; line 4: tools\[0\]\.name: letters/,
    );
    expect(() => parseToolDataset('\n', 'f.jsonl')).toThrow(/no prompts/);
  });
});
