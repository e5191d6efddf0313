import { describe, expect, it } from 'vitest';
import { NumericSeries, RingBuffer, SeriesStore } from './series.ts';

describe('NumericSeries', () => {
  it('keeps at most `capacity` points however long the run', () => {
    const s = new NumericSeries({ capacity: 100 });
    for (let i = 0; i < 100_000; i++) s.push(i, i * 2);
    expect(s.length).toBe(100);
    expect(s.capacity).toBe(100);
    expect(s.at(0)).toEqual({ t: 99_900, v: 199_800 });
    expect(s.last()).toEqual({ t: 99_999, v: 199_998 });
    const { t, v } = s.columns();
    expect(t.length).toBe(100);
    expect(t[0]).toBe(99_900);
    expect(v[99]).toBe(199_998);
    expect(s.points(99_998)).toEqual([
      { t: 99_998, v: 199_996 },
      { t: 99_999, v: 199_998 },
    ]);
  });

  it('drops points older than the time window', () => {
    const s = new NumericSeries({ capacity: 1000, maxAgeMs: 3000 });
    for (let t = 0; t <= 10_000; t += 1000) s.push(t, t);
    expect(s.points().map((p) => p.t)).toEqual([7000, 8000, 9000, 10_000]);
  });

  it('rejects a point older than the newest and rejects bad capacities', () => {
    const s = new NumericSeries({ capacity: 3 });
    expect(s.push(10, 1)).toBe(true);
    expect(s.push(5, 2)).toBe(false);
    expect(s.push(10, 3)).toBe(true);
    expect(s.length).toBe(2);
    expect(() => new NumericSeries({ capacity: 0 })).toThrow(RangeError);
    s.clear();
    expect(s.last()).toBeUndefined();
  });
});

describe('RingBuffer', () => {
  it('bounds objects by count and by age, oldest first', () => {
    const r = new RingBuffer<{ n: number }>({ capacity: 3, maxAgeMs: 10_000 });
    for (let i = 0; i < 5; i++) r.push(i * 1000, { n: i });
    expect(r.toArray().map((e) => e.value.n)).toEqual([2, 3, 4]);
    r.push(20_000, { n: 9 });
    expect(r.toArray().map((e) => e.t)).toEqual([20_000]);
    expect(r.last()?.value.n).toBe(9);
  });
});

describe('SeriesStore', () => {
  it('caps the number of series, evicting the least recently updated', () => {
    const st = new SeriesStore({ capacity: 10, maxSeries: 2 });
    st.push('a', 1, 1);
    st.push('b', 2, 2);
    st.push('a', 3, 3); // a is now the most recent
    st.push('c', 4, 4); // evicts b
    expect(st.keys().sort()).toEqual(['a', 'c']);
    expect(st.get('a')?.length).toBe(2);
    expect(st.size).toBe(2);
  });
});
