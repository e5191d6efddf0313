/** Tokens per chunk and the acceptance they show (first and last chunk of a request left out). */
import { describe, expect, it } from 'vitest';
import { EV_CONTENT, EV_USAGE } from '../request.ts';
import { acceptanceFromChunks, tokensPerChunk } from './chunk-pattern.ts';

describe('tokensPerChunk', () => {
  it('keeps content events only', () => {
    const e = { t: [5, 9, 12, 13], tok: [1, 3, 2, 0], f: [EV_CONTENT, EV_CONTENT, EV_CONTENT, EV_USAGE] };
    expect(tokensPerChunk(e)).toEqual({ t: [5, 9, 12], n: [1, 3, 2] });
  });
});

describe('acceptanceFromChunks', () => {
  it("counts the middle chunks: a request's first (prefill) and last (cut by the end) are not steps", () => {
    const a = acceptanceFromChunks([
      [1, 3, 1, 2, 1],
      [1, 4, 2],
    ]);
    expect(a.steps).toBe(4);
    expect(a.meanLength).toBe((3 + 1 + 2 + 4) / 4);
    // ≥ 2 tokens: 3 of 4 steps; ≥ 3: 2; ≥ 4: 1.
    expect(a.perPosition).toEqual([0.75, 0.5, 0.25]);
  });

  it('no whole step: no length', () => {
    expect(acceptanceFromChunks([[1], [1, 2]])).toEqual({ steps: 0, meanLength: null, perPosition: [] });
  });
});
