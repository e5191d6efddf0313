/**
 * The Sweep mode's notes on over-saturation say what happens next, as the core decided it: a re-run
 * to confirm, a confirmed stop, or (an SLO search) a failing load.
 */
import { describe, expect, it } from 'vitest';
import { handleSweepEvent } from './sweep-events.ts';
import { useSweepStore } from './sweep-store.ts';

const base = { sweepId: 's1', key: 'sweep-1.json' };

describe('sweep events', () => {
  it('over-saturation notes: rerun, confirmed, fail', () => {
    handleSweepEvent({ ...base, kind: 'started', name: null, url: 'http://x', model: 'm' });
    const load = { kind: 'rate' as const, value: 40 };
    handleSweepEvent({ ...base, kind: 'over-saturated', index: 3, load, atMs: 3100, then: 'rerun' });
    handleSweepEvent({ ...base, kind: 'over-saturated', index: 4, load, atMs: 3000, then: 'confirmed' });
    handleSweepEvent({ ...base, kind: 'over-saturated', index: 5, load, atMs: 3000, then: 'fail' });
    expect(useSweepStore.getState().live!.notes).toEqual([
      'Step 4 (rate 40/s) was over-saturated: stopped early, running it again to confirm.',
      'Step 5 (rate 40/s) was over-saturated again: confirmed, no higher load run.',
      'Step 6 (rate 40/s) was over-saturated: stopped early, the load fails.',
    ]);
  });
});
