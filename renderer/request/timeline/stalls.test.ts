import { describe, expect, it } from 'vitest';
import { EV_CONTENT, EV_USAGE } from '../../../shared/request.ts';
import { detectStalls } from './stalls.ts';

function cols(times: number[], flags?: number[]) {
  return {
    n: times.length,
    t: Float64Array.from(times),
    flags: Uint16Array.from(flags ?? times.map(() => EV_CONTENT)),
  };
}

describe('detectStalls', () => {
  it('reports a gap above both 5× the median and 100 ms', () => {
    // 20 ms steady decode, then one 600 ms pause.
    const t = [0, 20, 40, 60, 660, 680, 700];
    const r = detectStalls(cols(t));
    expect(r.medianGapMs).toBe(20);
    expect(r.thresholdMs).toBe(100);
    expect(r.stalls).toEqual([{ fromIndex: 3, toIndex: 4, fromMs: 60, toMs: 660, gapMs: 600 }]);
  });

  it('does not call a gap a stall when it is long in ratio but short in time', () => {
    // median 2 ms; a 30 ms gap is 15× but below 100 ms.
    const r = detectStalls(cols([0, 2, 4, 6, 36, 38]));
    expect(r.stalls).toEqual([]);
  });

  it('does not call a gap a stall when every gap is slow', () => {
    // median 300 ms; 400 ms is over 100 ms but not 5× the median.
    const r = detectStalls(cols([0, 300, 600, 900, 1300]));
    expect(r.thresholdMs).toBe(1500);
    expect(r.stalls).toEqual([]);
  });

  it('measures gaps between content events only', () => {
    // A usage event in the middle of a pause does not split it.
    const t = [0, 20, 40, 300, 600];
    const f = [EV_CONTENT, EV_CONTENT, EV_CONTENT, EV_USAGE, EV_CONTENT];
    const r = detectStalls(cols(t, f));
    expect(r.stalls).toHaveLength(1);
    expect(r.stalls[0]).toMatchObject({ fromIndex: 2, toIndex: 4, gapMs: 560 });
  });

  it('needs two content events', () => {
    expect(detectStalls(cols([5])).stalls).toEqual([]);
    expect(detectStalls(cols([5])).thresholdMs).toBeNull();
  });

  it('honours custom options', () => {
    const r = detectStalls(cols([0, 10, 20, 45]), { factor: 2, minMs: 0 });
    expect(r.stalls.map((s) => s.toIndex)).toEqual([3]);
  });
});
