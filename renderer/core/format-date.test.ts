import { describe, expect, it } from 'vitest';
import { fmtClock, fmtDateTime } from './format-date.ts';

describe('one way to write a moment', () => {
  it('a run: the locale’s date with a 24-hour time; a request: HH:MM:SS', () => {
    const t = new Date(2026, 10, 25, 15, 49, 46).getTime(); // local time
    const s = fmtDateTime(t);
    expect(s).toContain('2026');
    expect(s).toMatch(/15:49/);
    expect(s).not.toMatch(/PM|AM/);
    expect(fmtClock(t)).toBe('15:49:46');
    expect(fmtDateTime(NaN)).toBe('');
    expect(fmtDateTime(null)).toBe('');
  });
});
