/**
 * A request's tokens per chunk, and what the pattern says about speculative decoding. A server
 * that decodes speculatively streams each step's output together: the first token alone (the
 * prefill step drafts nothing), then 1 + the accepted draft run per step (vLLM V1 at
 * --stream-interval 1; docs/metrics.md "Speculative decoding"). So a stream's chunks after its
 * first are verification steps, and their token counts are acceptance lengths — except a
 * request's last chunk, which the end (max_tokens, EOS) may have cut short.
 *
 * From the client alone this is an estimate that holds only when one chunk is one step (a server
 * that batches steps into chunks, or a proxy that re-chunks, breaks it); the server's own counters
 * are the reference. The token counts are the stream's per-event counts (exact where the server
 * sends them, else estimated: EV_TOKENS_EXACT).
 */
import { EV_CONTENT } from '../request.ts';

export interface ChunkColumns {
  t: ArrayLike<number>;
  tok: ArrayLike<number>;
  f: ArrayLike<number>;
}

/** Content events only: their times (ms since the request's start) and token counts. */
export function tokensPerChunk(e: ChunkColumns): { t: number[]; n: number[] } {
  const t: number[] = [];
  const n: number[] = [];
  for (let i = 0; i < e.t.length; i++) {
    if (((e.f[i] as number) & EV_CONTENT) === 0) continue;
    t.push(e.t[i] as number);
    n.push(e.tok[i] as number);
  }
  return { t, n };
}

export interface ChunkAcceptance {
  /** Chunks counted as whole verification steps (neither a request's first nor its last). */
  steps: number;
  /** Mean tokens per such chunk: the acceptance length, bonus token included; null without steps. */
  meanLength: number | null;
  /** Share of steps with at least i + 2 tokens (draft position i accepted); up to the longest seen. */
  perPosition: number[];
}

/** Acceptance seen in the chunk patterns of several requests (each: tokens per content chunk). */
export function acceptanceFromChunks(patterns: readonly (readonly number[])[]): ChunkAcceptance {
  let steps = 0;
  let tokens = 0;
  const atLeast: number[] = [];
  for (const p of patterns) {
    for (let i = 1; i < p.length - 1; i++) {
      const n = p[i] as number;
      steps++;
      tokens += n;
      for (let pos = 0; pos < n - 1; pos++) atLeast[pos] = (atLeast[pos] ?? 0) + 1;
    }
  }
  return {
    steps,
    meanLength: steps > 0 ? tokens / steps : null,
    perPosition: steps > 0 ? atLeast.map((x) => x / steps) : [],
  };
}
