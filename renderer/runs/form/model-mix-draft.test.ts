/** The run form's model mix: typed text → workload `models` and back, refused with its field. */
import { describe, expect, it } from 'vitest';
import {
  defaultDraft,
  draftToWorkload,
  fieldOfPath,
  validateDraft,
  workloadToDraft,
} from './workload-draft.ts';

describe('the run form’s model mix', () => {
  it('sends none when empty, and the typed names with weights otherwise', () => {
    expect(draftToWorkload(defaultDraft()).models).toBeUndefined();
    const w = draftToWorkload({ ...defaultDraft(), models: 'base=3,\n org/lora:a=1 , plain' });
    expect(w.models).toEqual([
      { name: 'base', weight: 3 },
      { name: 'org/lora:a', weight: 1 },
      { name: 'plain' },
    ]);
    expect(validateDraft({ ...defaultDraft(), models: 'base=3, lora=1' })).toEqual([]);
  });

  it('refuses a weight that is no number, or a name twice, on the mix field', () => {
    const bad = validateDraft({ ...defaultDraft(), models: 'base=fast' });
    expect(bad.map((i) => i.path)).toEqual(['models[0].weight']);
    expect(fieldOfPath(bad[0]!.path)).toBe('models');
    const twice = validateDraft({ ...defaultDraft(), models: 'a, a' });
    expect(twice.map((i) => [i.path, i.message])).toEqual([['models[1].name', '"a" is listed twice']]);
  });

  it('a loaded workload’s mix shows as text and goes back out unchanged', () => {
    const d = workloadToDraft({ requests: 5, models: [{ name: 'base', weight: 3 }, 'lora'] });
    expect(d.models).toBe('base=3, lora');
    expect(draftToWorkload(d).models).toEqual([{ name: 'base', weight: 3 }, { name: 'lora' }]);
  });
});
