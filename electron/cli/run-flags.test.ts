/** `tokenscope run`'s multi-turn flags laid over a workload: --turns, --think-time, --first-input-len. */
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../shared/runs/workload/workload.ts';
import { applyOverrides } from './run-flags.ts';

const parsed = (o: Parameters<typeof applyOverrides>[1], raw: Record<string, unknown> = {}) =>
  parseWorkload(applyOverrides(raw, o).raw);

describe('multi-turn flags', () => {
  it('--turns N or MIN-MAX, --think-time MS / MIN-MAX / exp:MEAN, --first-input-len', () => {
    const a = parsed({ turns: '2-5', thinkTime: 'exp:800', firstInputLen: '2000' });
    expect(a.ok && a.value.sessions).toEqual({
      turns: { type: 'uniform', min: 2, max: 5 },
      thinkTimeMs: { type: 'exponential', meanMs: 800 },
      firstInputLen: { type: 'fixed', value: 2000 },
    });
    const b = parsed({ thinkTime: '100-300' });
    expect(b.ok && b.value.sessions).toEqual({
      turns: { type: 'fixed', value: 4 },
      thinkTimeMs: { type: 'uniform', minMs: 100, maxMs: 300 },
    });
    const c = parsed({ turns: '3', thinkTime: '250' }, { sessions: { firstInputLen: 500 } });
    expect(c.ok && c.value.sessions).toEqual({
      turns: { type: 'fixed', value: 3 },
      thinkTimeMs: { type: 'fixed', ms: 250 },
      firstInputLen: { type: 'fixed', value: 500 },
    });
    const none = parsed({});
    expect(none.ok && none.value.sessions).toBeUndefined();
  });

  it('bad values are the schema’s errors, with their paths', () => {
    const r = parsed({ thinkTime: 'soon' });
    expect(!r.ok && r.error.map((e) => e.path)).toContain('sessions.thinkTimeMs');
    const t = parsed({ turns: '5-2' });
    expect(!t.ok && t.error.map((e) => `${e.path}: ${e.message}`)).toContain(
      'sessions.turns.max: min must be ≤ max',
    );
    const j = parsed({ turns: '3' }, { prompts: { type: 'jsonl', path: 'x.jsonl' } });
    expect(!j.ok && j.error[0]!.message).toMatch(/synthetic prompts or a ShareGPT file/);
  });
});

describe('prefix-cache flags', () => {
  it('--prefix-groups with --prefix-len, --cache-bust, --reset-prefix-cache set the workload', () => {
    const g = parsed({ prefixGroups: 8, prefixLen: 512, inputLen: '64', resetPrefixCache: true });
    expect(g.ok).toBe(true);
    if (!g.ok) return;
    expect(g.value.prompts).toMatchObject({ type: 'synthetic', prefixGroups: { groups: 8, prefixLen: 512 } });
    expect(g.value.resetPrefixCache).toBe(true);
    const b = parsed({ cacheBust: true });
    expect(b.ok && b.value.prompts.type === 'synthetic' && b.value.prompts.cacheBust).toBe(true);
  });

  it('refuses one without the other, and prompts that are not synthetic', () => {
    expect(applyOverrides({}, { prefixGroups: 8 }).error).toMatch(
      /--prefix-groups and --prefix-len go together/,
    );
    expect(
      applyOverrides({ prompts: { type: 'sharegpt', path: 'x.json' } }, { cacheBust: true }).error,
    ).toMatch(/apply to synthetic prompts; this workload reads sharegpt/);
    const both = parsed({ prefixGroups: 2, prefixLen: 16, cacheBust: true });
    expect(both.ok).toBe(false);
  });
});
