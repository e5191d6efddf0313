import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeWire, encodeWire } from './wire.ts';
import { histogramQuantile } from './metrics/prom-math.ts';

const roundTrip = <T>(v: T): T => decodeWire(encodeWire(v)) as T;

describe('wire codec', () => {
  it('carries typed arrays as typed arrays', () => {
    const out = roundTrip({ t: new Float64Array([1.5, 2.25]), n: new Uint32Array([7]), plain: [1, 2] });
    expect(out.t).toBeInstanceOf(Float64Array);
    expect(Array.from(out.t)).toEqual([1.5, 2.25]);
    expect(out.n).toBeInstanceOf(Uint32Array);
    expect(out.plain).toEqual([1, 2]);
  });

  it('keeps Infinity, -Infinity and NaN (JSON alone makes them null)', () => {
    expect(JSON.parse(JSON.stringify({ le: Infinity }))).toEqual({ le: null });
    const out = roundTrip({
      le: Infinity,
      lo: -Infinity,
      sum: NaN,
      ok: 1,
      nothing: null,
      list: [NaN, 2, -Infinity],
    });
    expect(out.le).toBe(Infinity);
    expect(out.lo).toBe(-Infinity);
    expect(out.sum).toBeNaN();
    expect(out.ok).toBe(1);
    expect(out.nothing).toBeNull();
    expect(out.list[0]).toBeNaN();
    expect(out.list.slice(1)).toEqual([2, -Infinity]);
    expect(roundTrip(Infinity)).toBe(Infinity);
  });

  it('keeps non-finite values inside typed arrays', () => {
    const out = roundTrip({ v: new Float64Array([Infinity, NaN, -Infinity, 0.5]) });
    expect(out.v).toBeInstanceOf(Float64Array);
    expect(out.v[0]).toBe(Infinity);
    expect(out.v[1]).toBeNaN();
    expect(out.v[2]).toBe(-Infinity);
    expect(out.v[3]).toBe(0.5);
  });

  it('a histogram with its +Inf bucket arrives whole (a call result and an event)', () => {
    const h = {
      buckets: [
        { le: 0.1, count: 1 },
        { le: Infinity, count: 3 },
      ],
      sum: NaN,
      count: 3,
    };
    const ev = roundTrip({
      type: 'event',
      event: 'onMetricsScrape',
      payload: { concepts: { ttftHistogram: h } },
    });
    expect(ev.payload.concepts.ttftHistogram).toEqual(h);
    // Without the +Inf bucket every quantile would be NaN.
    expect(histogramQuantile(0.5, ev.payload.concepts.ttftHistogram.buckets)).toBeCloseTo(0.1, 12);
  });

  it('leaves strings that look like tags alone; only the exact tag object is decoded', () => {
    const out = roundTrip({ s: '+Inf', o: { __num: 'forty-two' }, t: { __num: 'NaN', extra: 1 } });
    expect(out.s).toBe('+Inf');
    expect(out.o).toEqual({ __num: 'forty-two' });
    expect(out.t.__num).toBe('NaN');
  });

  it('round-trips any double and nested structure (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double()),
        fc.dictionary(fc.string(), fc.oneof(fc.double(), fc.string(), fc.constant(null))),
        (xs, d) => {
          const out = roundTrip({ xs, d, ta: Float64Array.from(xs) });
          expect(out.xs).toEqual(xs.map((x) => (Object.is(x, -0) ? 0 : x)));
          expect(Array.from(out.ta)).toEqual(xs.map((x) => (Object.is(x, -0) ? 0 : x)));
          expect(out.d).toEqual(
            Object.fromEntries(Object.entries(d).map(([k, v]) => [k, Object.is(v, -0) ? 0 : v])),
          );
        },
      ),
    );
  });
});
