import { describe, expect, it } from 'vitest';
import { autoDomain, clampDomain, linearScale, MIN_SPAN_MS, panDomain, zoomDomain } from './scale.ts';

describe('linearScale', () => {
  it('maps the domain onto the pixel range and back', () => {
    const s = linearScale({ min: 100, max: 300 }, 50, 450);
    expect(s.toPx(100)).toBe(50);
    expect(s.toPx(300)).toBe(450);
    expect(s.toPx(200)).toBe(250);
    expect(s.toMs(250)).toBe(200);
    expect(s.toMs(s.toPx(123.456))).toBeCloseTo(123.456, 9);
  });
});

describe('autoDomain', () => {
  it('starts at 0 and leaves a 2 % margin after the last thing', () => {
    expect(autoDomain(1000)).toEqual({ min: 0, max: 1020 });
  });
  it('falls back to 100 ms when nothing happened yet', () => {
    expect(autoDomain(0)).toEqual({ min: 0, max: 100 });
    expect(autoDomain(NaN)).toEqual({ min: 0, max: 100 });
  });
});

describe('zoomDomain', () => {
  const bounds = { min: 0, max: 1000 };
  it('keeps the point under the cursor fixed', () => {
    const d = zoomDomain({ min: 0, max: 1000 }, 250, 0.5, bounds);
    expect(d.max - d.min).toBe(500);
    // 250 was at 25 % of the view and stays there.
    expect((250 - d.min) / (d.max - d.min)).toBeCloseTo(0.25, 12);
  });
  it('never zooms out beyond the bounds', () => {
    expect(zoomDomain({ min: 100, max: 200 }, 150, 100, bounds)).toEqual(bounds);
  });
  it('never zooms in below the minimum span', () => {
    const d = zoomDomain({ min: 10, max: 10.06 }, 10.03, 0.01, bounds);
    expect(d.max - d.min).toBeCloseTo(MIN_SPAN_MS, 12);
  });
});

describe('panDomain / clampDomain', () => {
  const bounds = { min: 0, max: 1000 };
  it('shifts the view and stops at the edges', () => {
    expect(panDomain({ min: 100, max: 200 }, 50, bounds)).toEqual({ min: 150, max: 250 });
    expect(panDomain({ min: 100, max: 200 }, -500, bounds)).toEqual({ min: 0, max: 100 });
    expect(panDomain({ min: 800, max: 900 }, 500, bounds)).toEqual({ min: 900, max: 1000 });
  });
  it('returns the bounds when the view is wider', () => {
    expect(clampDomain({ min: -10, max: 2000 }, bounds)).toEqual(bounds);
  });
});
