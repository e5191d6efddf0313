import { describe, expect, it } from 'vitest';
import { parseDurationS } from './fleet.ts';

describe('PromQL-style durations', () => {
  it('parses units and compounds; refuses the rest', () => {
    expect(parseDurationS('90s')).toBe(90);
    expect(parseDurationS('5m')).toBe(300);
    expect(parseDurationS('1h30m')).toBe(5400);
    expect(parseDurationS('500ms')).toBeCloseTo(0.5, 9);
    expect(parseDurationS('2d')).toBe(172800);
    expect(parseDurationS('15')).toBe(15);
    for (const bad of ['', 'm', '5 m', '5x', '-1m', 'ten minutes', '5m junk'])
      expect(parseDurationS(bad), bad).toBeNull();
  });
});
