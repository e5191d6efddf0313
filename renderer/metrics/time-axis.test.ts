import { describe, expect, it } from 'vitest';
import { axisDomain, clockLabel, fmtAge, MIN_AXIS_SPAN_MS, timeTicks, windowMs } from './time-axis.ts';

describe('timeTicks', () => {
  it('picks 10 s steps aligned to the clock for a 1 min window', () => {
    // 60 s / 10 s = 6 ticks (≤ 7); 5 s would give 12.
    expect(timeTicks(1_000_003_000, 1_000_063_000)).toEqual([
      1_000_010_000, 1_000_020_000, 1_000_030_000, 1_000_040_000, 1_000_050_000, 1_000_060_000,
    ]);
  });

  it('picks 1 min steps for 5 min and 3… for 15 min, all inside the window', () => {
    const five = timeTicks(0, 300_000);
    expect(five).toEqual([0, 60_000, 120_000, 180_000, 240_000, 300_000]);
    const fifteen = timeTicks(30_000, 930_000);
    // 900 s / 120 s = 7.5 > 7, so 300 s: 300, 600, 900 s.
    expect(fifteen).toEqual([300_000, 600_000, 900_000]);
  });

  it('returns nothing for an empty span', () => {
    expect(timeTicks(5, 5)).toEqual([]);
    expect(timeTicks(NaN, 5)).toEqual([]);
  });
});

describe('labels', () => {
  it('formats local clock time as HH:MM:SS', () => {
    const ms = new Date(2024, 0, 2, 3, 4, 5).getTime();
    expect(clockLabel(ms)).toBe('03:04:05');
  });

  it('formats ages', () => {
    expect(fmtAge(420)).toBe('0.4 s');
    expect(fmtAge(12_400)).toBe('12 s');
    expect(fmtAge(185_000)).toBe('3 min 5 s');
    expect(fmtAge(120_000)).toBe('2 min');
    // Whole seconds first: never "6 min 60 s".
    expect(fmtAge(419_600)).toBe('7 min');
    expect(fmtAge(419_400)).toBe('6 min 59 s');
    expect(fmtAge(-5)).toBe('0.0 s');
  });

  it('knows the windows', () => {
    expect(windowMs('5m')).toBe(300_000);
  });
});

describe('axisDomain', () => {
  const end = 1_000_000_000;
  it('is the whole window when scraping started before it (or not at all)', () => {
    expect(axisDomain(end, 60_000, end - 120_000)).toEqual({ start: end - 60_000, end, clipped: false });
    expect(axisDomain(end, 60_000, null)).toEqual({ start: end - 60_000, end, clipped: false });
  });
  it('starts 2 s before the first scrape when watching began inside the window', () => {
    expect(axisDomain(end, 60_000, end - 30_000)).toEqual({ start: end - 32_000, end, clipped: true });
  });
  it('never shows less than 20 s', () => {
    expect(axisDomain(end, 60_000, end - 1000)).toEqual({
      start: end - MIN_AXIS_SPAN_MS,
      end,
      clipped: true,
    });
    expect(MIN_AXIS_SPAN_MS).toBe(20_000);
  });
});
