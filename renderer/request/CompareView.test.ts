/**
 * The single-request comparison colours a change only when it matters: over 1 % of A (the run
 * comparison's SAME_WITHIN) and, for times, over SAME_WITHIN_MS. A +0.07 ms TPOT change is grey.
 */
import { describe, expect, it } from 'vitest';
import { diff, METRICS, SAME_WITHIN_MS } from './CompareView.tsx';

const metric = (label: string) => METRICS.find((m) => m.label === label)!;

describe('the single-request comparison colours', () => {
  it('leaves a tiny time change grey, whatever its percentage', () => {
    const tpot = metric('TPOT');
    // 2.00 → 2.07 ms: 3.5 %, but 0.07 ms is below a single request's timing noise.
    expect(diff(2, 2.07, tpot)).toEqual({ text: '+0.07 ms (+3 %)', tone: '' });
    expect(diff(2, 2 + SAME_WITHIN_MS, tpot).tone).toBe('worse');
  });

  it('leaves a change within 1 % grey, as the run comparison does', () => {
    expect(diff(1000, 1008, metric('TTFT')).tone).toBe('');
    expect(diff(1000, 1020, metric('TTFT')).tone).toBe('worse');
    expect(diff(1000, 980, metric('TTFT')).tone).toBe('better');
    expect(diff(100, 100.5, metric('Tokens/s')).tone).toBe('');
    expect(diff(100, 110, metric('Tokens/s')).tone).toBe('better');
  });

  it('never colours a count that is neither better nor worse', () => {
    expect(diff(10, 20, metric('Chunks')).tone).toBe('');
  });
});
