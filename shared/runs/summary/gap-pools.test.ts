import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../stats/summary.ts';
import { GapPools, type GapList } from './gap-pools.ts';
import { blankOutcome, type RequestOutcome, type Values } from './outcome.ts';

/** The pool as the summary had it before: every request's list, concatenated, summarized. */
function concat(ok: RequestOutcome[], pick: (o: RequestOutcome) => Values | null | undefined): number[] {
  const out: number[] = [];
  for (const o of ok) for (const v of pick(o) ?? []) out.push(v);
  return out;
}

const picks: Record<GapList, (o: RequestOutcome) => Values | null | undefined> = {
  chunk: (o) => o.itlChunkMs,
  own: (o) => o.itlChunkMeasuredMs ?? o.itlChunkMs,
  token: (o) => o.itlTokenMeasuredMs ?? o.itlTokenMs,
  tokenAll: (o) => o.itlTokenMs ?? o.itlTokenMeasuredMs,
};

const gaps = fc.array(fc.double({ min: 0, max: 500, noNaN: true }), { maxLength: 12 });
/** How a request's other lists relate to its chunk gaps: the very list, a copy, a part, another. */
const relation = fc.constantFrom('same', 'copy', 'part', 'other', 'none');

function derived(chunk: number[], how: string, other: number[]): Values | undefined {
  if (how === 'same') return chunk;
  if (how === 'copy') return Float64Array.from(chunk);
  if (how === 'part') return chunk.filter((_, i) => i % 2 === 0);
  if (how === 'other') return other;
  return undefined;
}

const outcome = fc
  .record({ chunk: gaps, other: gaps, measured: relation, token: relation, tokenMeasured: relation })
  .map(({ chunk, other, measured, token, tokenMeasured }) => {
    const o = blankOutcome(true);
    o.itlChunkMs = chunk;
    const m = derived(chunk, measured, other);
    if (m !== undefined) o.itlChunkMeasuredMs = m;
    o.itlTokenMs = derived(chunk, token, other) ?? null;
    const tm = derived(chunk, tokenMeasured, other);
    if (tm !== undefined) o.itlTokenMeasuredMs = tm;
    return o;
  });

/** The byte lengths of the buffers of the Float64Arrays constructed while `fn` runs (views of one buffer: once). */
function float64sMadeBy(fn: () => void): number[] {
  const made = new Set<ArrayBufferLike>();
  const Orig = globalThis.Float64Array;
  class Counting extends Orig {
    constructor(...a: [number]) {
      super(...a);
      made.add(this.buffer);
    }
  }
  globalThis.Float64Array = Counting as unknown as Float64ArrayConstructor;
  try {
    fn();
  } finally {
    globalThis.Float64Array = Orig;
  }
  return [...made].map((b) => b.byteLength);
}

describe('GapPools', () => {
  it('gives the statistics of each concatenated list, and says which lists are equal', () => {
    fc.assert(
      fc.property(fc.array(outcome, { maxLength: 8 }), (ok) => {
        const pools = new GapPools(ok);
        const kinds = Object.keys(picks) as GapList[];
        for (const k of kinds) {
          const want = concat(ok, picks[k]);
          expect(pools.length(k)).toBe(want.length);
          expect(pools.stats(k)).toEqual(summarize(want));
          for (const j of kinds) {
            const other = concat(ok, picks[j]);
            const equal = want.length === other.length && want.every((v, i) => v === other[i]);
            expect(pools.same(k, j)).toBe(equal);
          }
        }
        expect(pools.anyToken).toBe(ok.some((o) => !!picks.token(o)));
      }),
      { numRuns: 300 },
    );
  });

  it('pools a list that is another in every request once, and sorts every pool in place in one buffer', () => {
    const ok = [0, 1, 2].map((i) => {
      const o = blankOutcome(true);
      o.itlChunkMs = Float64Array.of(3 + i, 1, 2);
      o.itlTokenMs = o.itlChunkMs;
      return o;
    });
    // Request 0's measured gaps leave one coalesced gap out: two pools, 'chunk' and 'own'.
    ok[0]!.itlChunkMeasuredMs = Float64Array.of(3, 2);
    const pools = new GapPools(ok);
    const made = float64sMadeBy(() => {
      for (const k of ['chunk', 'token', 'tokenAll'] as GapList[]) expect(pools.stats(k)?.count).toBe(9);
      expect(pools.stats('own')).toMatchObject({ count: 8, min: 1, max: 5 });
    });
    // One buffer for both pools (or none: the last summary's, still alive, held 9), no sorted copy,
    // and the requests' own lists left in their order.
    expect(made.length).toBeLessThanOrEqual(1);
    for (const bytes of made) expect(bytes).toBe(9 * 8);
    expect([...ok[0]!.itlChunkMs]).toEqual([3, 1, 2]);
    expect(pools.stats('chunk')).toMatchObject({ min: 1, max: 5, median: 2 });
  });

  it("a summary after another fills the last one's buffer while it lives, and each keeps its numbers", () => {
    const outcomes = (n: number, base: number) =>
      [0, 1].map((i) => {
        const o = blankOutcome(true);
        o.itlChunkMs = Float64Array.from({ length: n }, (_, k) => base + ((k * 7 + i) % n));
        return o;
      });
    const first = new GapPools(outcomes(500, 1000));
    const a = first.stats('chunk');
    const second = outcomes(100, 0);
    let b;
    const made = float64sMadeBy(() => {
      b = new GapPools(second).stats('chunk');
    });
    expect(made).toEqual([]); // the first one's 1,000 doubles, reused
    expect(b).toEqual(summarize(second.flatMap((o) => [...o.itlChunkMs])));
    // The first summary's numbers were taken before its buffer was filled again.
    expect(first.stats('chunk')).toBe(a);
    expect(a).toMatchObject({ count: 1000, min: 1000, max: 1499 });
  });
});
