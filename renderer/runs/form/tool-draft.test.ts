/** The run form's tool fields → the workload's `tools` and `tools` prompt source and back; issues land on the fields. */
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/runs/workload/workload.ts';
import {
  defaultDraft,
  draftToWorkload,
  fieldOfPath,
  issuesOfMessage,
  validateDraft,
  workloadToDraft,
  type WorkloadDraft,
} from './workload-draft.ts';

const draft = (patch: Partial<WorkloadDraft>): WorkloadDraft => ({ ...defaultDraft(), ...patch });
const fields = (d: WorkloadDraft): string[] => validateDraft(d).map((i) => fieldOfPath(i.path));

describe('tool fields', () => {
  it('write nothing by default', () => {
    const w = draftToWorkload(defaultDraft());
    expect(w.tools).toBeUndefined();
    expect((w.prompts as { type: string }).type).toBe('synthetic');
  });

  it('the built-in dataset has no path; a file has one, and an output length rides along', () => {
    expect(draftToWorkload(draft({ source: 'tools' })).prompts).toEqual({ type: 'tools' });
    // A path typed while "built-in" was picked is not sent.
    expect(draftToWorkload(draft({ source: 'tools', path: 'x.jsonl' })).prompts).toEqual({ type: 'tools' });
    const file = draft({
      source: 'tools',
      toolDataset: 'file',
      path: ' my/tools.jsonl ',
      fileOutputLen: '64',
    });
    expect(draftToWorkload(file).prompts).toEqual({ type: 'tools', path: 'my/tools.jsonl', outputLen: 64 });
    expect(validateDraft(draft({ source: 'tools' }))).toEqual([]);
    // A file without its path is the path field's problem.
    expect(fields(draft({ source: 'tools', toolDataset: 'file' }))).toEqual(['path']);
  });

  it('tool_choice, definitions and an agentic session become the workload’s tools, valid for the schema', () => {
    const d = draft({
      source: 'tools',
      toolChoice: 'named',
      toolChoiceName: 'get_weather',
      toolDefs: JSON.stringify([
        { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      ]),
      agentic: true,
      agenticSteps: '6',
      toolLatency: 'uniform',
      toolLatencyMinMs: '20',
      toolLatencyMaxMs: '80',
      toolResultChars: '500',
    });
    const w = draftToWorkload(d);
    expect(w.tools).toEqual({
      choice: { name: 'get_weather' },
      definitions: [
        { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      ],
      agentic: { maxSteps: 6, toolLatencyMs: { type: 'uniform', minMs: 20, maxMs: 80 }, resultChars: 500 },
    });
    const parsed = parseWorkload(w);
    expect(parsed.ok).toBe(true);
    expect(validateDraft(d)).toEqual([]);
    expect(draftToWorkload(draft({ toolChoice: 'required' })).tools).toEqual({ choice: 'required' });
    expect(
      (
        draftToWorkload(draft({ agentic: true, toolLatency: 'exponential', toolLatencyMs: '250' })).tools as {
          agentic: unknown;
        }
      ).agentic,
    ).toEqual({ maxSteps: 4, toolLatencyMs: { type: 'exponential', meanMs: 250 }, resultChars: 200 });
  });

  it('a loaded workload comes back the same, and its tools go away when the form turns them off', () => {
    const loaded = {
      requests: 12,
      prompts: { type: 'tools', path: 'tools.jsonl' },
      tools: { choice: 'none', agentic: { maxSteps: 3, toolLatencyMs: 75 } },
    };
    const d = workloadToDraft(loaded);
    expect([d.source, d.toolDataset, d.path, d.toolChoice, d.agentic]).toEqual([
      'tools',
      'file',
      'tools.jsonl',
      'none',
      true,
    ]);
    expect([d.agenticSteps, d.toolLatency, d.toolLatencyMs, d.toolResultChars]).toEqual([
      '3',
      'fixed',
      '75',
      '200',
    ]);
    const out = draftToWorkload(d);
    expect(out.prompts).toEqual({ type: 'tools', path: 'tools.jsonl' });
    expect(out.tools).toEqual({
      choice: 'none',
      agentic: { maxSteps: 3, toolLatencyMs: { type: 'fixed', ms: 75 }, resultChars: 200 },
    });
    expect(draftToWorkload({ ...d, toolChoice: 'auto', agentic: false }).tools).toBeUndefined();
    const exp = workloadToDraft({
      requests: 1,
      tools: { agentic: { toolLatencyMs: { type: 'uniform', minMs: 5, maxMs: 9 } } },
    });
    expect([exp.toolLatency, exp.toolLatencyMinMs, exp.toolLatencyMaxMs, exp.source]).toEqual([
      'uniform',
      '5',
      '9',
      'synthetic',
    ]);
    // Another source's file is not a tools dataset.
    expect(workloadToDraft({ requests: 1, prompts: { type: 'jsonl', path: 'p.jsonl' } }).toolDataset).toBe(
      'builtin',
    );
    const named = workloadToDraft({ requests: 1, tools: { choice: { name: 'search_docs' } } });
    expect([named.toolChoice, named.toolChoiceName]).toEqual(['named', 'search_docs']);
  });

  it('bad values are refused on their own fields, in plain words', () => {
    expect(fields(draft({ agentic: true, agenticSteps: '65' }))).toEqual(['agenticSteps']);
    expect(validateDraft(draft({ agentic: true, agenticSteps: '65' }))[0]!.message).toMatch(
      /at most 64 steps/,
    );
    expect(fields(draft({ agentic: true, agenticSteps: 'x' }))).toEqual(['agenticSteps']);
    expect(fields(draft({ agentic: true, toolLatencyMs: '-1' }))).toEqual(['toolLatencyMs']);
    expect(
      fields(
        draft({ agentic: true, toolLatency: 'uniform', toolLatencyMinMs: '90', toolLatencyMaxMs: '10' }),
      ),
    ).toEqual(['toolLatencyMaxMs']);
    expect(fields(draft({ agentic: true, toolResultChars: '100001' }))).toEqual(['toolResultChars']);
    expect(fields(draft({ toolChoice: 'named', toolChoiceName: '' }))).toEqual(['toolChoiceName']);
    // Agentic sessions send single requests' conversations: images are refused on the image field.
    expect(fields(draft({ agentic: true, imageCount: '1' }))).toEqual(['imageCount']);
  });

  it('definitions that are not a JSON array, or not a tool the schema takes, are the definitions field’s', () => {
    const notJson = validateDraft(draft({ toolDefs: '[{"name": ' }));
    expect(notJson).toHaveLength(1);
    expect(notJson[0]!.path).toBe('tools.definitions');
    expect(notJson[0]!.message).toMatch(/^not JSON/);
    expect(fieldOfPath(notJson[0]!.path)).toBe('toolDefs');
    expect(validateDraft(draft({ toolDefs: '{"name": "a"}' }))[0]!.message).toMatch(/JSON array/);
    const oneOf = validateDraft(
      draft({ toolDefs: JSON.stringify([{ name: 'f', parameters: { oneOf: [{ type: 'string' }] } }]) }),
    );
    expect(oneOf.map((i) => fieldOfPath(i.path))).toEqual(['toolDefs']);
    expect(oneOf[0]!.message).toMatch(/oneOf/);
    const twice = validateDraft(
      draft({
        toolDefs: JSON.stringify([
          { name: 'f', parameters: {} },
          { name: 'f', parameters: {} },
        ]),
      }),
    );
    expect(twice.map((i) => i.message)).toEqual(['"f" is defined twice']);
    // A named choice must be one of the definitions when there are any.
    const unknown = validateDraft(
      draft({
        toolDefs: JSON.stringify([{ name: 'f', parameters: {} }]),
        toolChoice: 'named',
        toolChoiceName: 'g',
      }),
    );
    expect(unknown.map((i) => [fieldOfPath(i.path), i.message])).toEqual([
      ['toolChoiceName', 'no tool named "g" is defined'],
    ]);
  });

  it('a dataset the core could not read, or whose lines are bad, is the path field’s', () => {
    const [i] = issuesOfMessage(
      'prompts: /runs/my-tools.jsonl: line 2: tools[0].parameters: "oneOf" is not supported',
    );
    expect(i).toEqual({
      path: 'prompts.path',
      message: '/runs/my-tools.jsonl: line 2: tools[0].parameters: "oneOf" is not supported',
    });
    expect(fieldOfPath(i!.path)).toBe('path');
  });
});
