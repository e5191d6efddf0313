/** Slicing a workload into shards, and reading --shard and --start-at. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ownsRequest,
  parseShard,
  parseStartAt,
  shareOf,
  START_AT_TOLERANCE_MS,
  warmupIndex,
} from './shard.ts';

describe('slicing', () => {
  it('every request of the schedule belongs to exactly one shard, and shareOf counts them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 500 }), (of, n) => {
        const counts = Array.from({ length: of }, () => 0);
        for (let i = 0; i < n; i++) {
          const owners = counts.map((_, index) => index).filter((index) => ownsRequest({ index, of }, i));
          expect(owners).toEqual([i % of]);
          counts[owners[0]!]!++;
        }
        counts.forEach((c, index) => expect(shareOf({ index, of }, n)).toBe(c));
      }),
    );
  });

  it('without a shard a run owns everything; warm-up indices interleave and never collide', () => {
    expect(ownsRequest(null, 7)).toBe(true);
    expect(shareOf(null, 9)).toBe(9);
    expect(shareOf({ index: 1, of: 4 }, null)).toBeNull();
    const seen = new Set<number>();
    for (let index = 0; index < 3; index++)
      for (let k = 0; k < 5; k++) seen.add(warmupIndex({ index, of: 3 }, k));
    expect(seen.size).toBe(15);
    expect(warmupIndex(undefined, 4)).toBe(4);
  });
});

describe('--shard', () => {
  it('reads 0-based I/N', () => {
    expect(parseShard('0/4')).toEqual({ ok: true, value: { index: 0, of: 4 } });
    expect(parseShard(' 3 / 4 ')).toEqual({ ok: true, value: { index: 3, of: 4 } });
  });
  it('refuses an index ≥ N (the 1-based mistake), N = 0, and other shapes', () => {
    for (const bad of ['4/4', '1/0', '-1/4', '2', '1-4', 'a/b', '1/99999']) {
      const r = parseShard(bad);
      expect(r.ok, bad).toBe(false);
    }
    const r = parseShard('4/4');
    expect(!r.ok && r.error).toMatch(/0-based.*0 to 3/);
  });
});

describe('--start-at', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('reads epoch ms and ISO-8601 with a zone', () => {
    expect(parseStartAt(String(now + 5000), now)).toEqual({ ok: true, value: now + 5000 });
    expect(parseStartAt('2026-03-01T12:00:05Z', now)).toEqual({ ok: true, value: now + 5000 });
    expect(parseStartAt('2026-03-01T13:00:05.250+01:00', now)).toEqual({ ok: true, value: now + 5250 });
  });
  it('refuses a time without a zone (machines in other zones would read another instant)', () => {
    const r = parseStartAt('2026-03-01T12:00:05', now);
    expect(!r.ok && r.error).toMatch(/with its zone/);
  });
  it('takes a time just past (within the tolerance), refuses one further back or a day ahead', () => {
    expect(parseStartAt(String(now - START_AT_TOLERANCE_MS + 1), now).ok).toBe(true);
    const past = parseStartAt(String(now - 2000), now);
    expect(!past.ok && past.error).toMatch(/2\.000 s in the past/);
    expect(parseStartAt(String(now + 25 * 3600_000), now).ok).toBe(false);
  });
});
