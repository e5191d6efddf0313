// Counts from a server never size an allocation nor wrap a column (issue 24 point 3): vLLM's real
// continuous-usage stream (test-corpus/sse/vllm-chat-continuous-usage.sse) with its cumulative
// completion_tokens rewritten to hostile values up to 2^63 — a jump 1 → 5e9, 2^53, 2^63 — is
// decoded without throwing; a per-event count past what max_tokens allows (or past a million) is
// refused as protocol/bad-token-count and never stored; honest counts stay exact; and the stats of
// whatever was recorded have per-token lists bounded by MAX_PER_TOKEN_VALUES.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newRecord } from '../../shared/record.ts';
import { EV_CONTENT, EV_TOKENS_EXACT } from '../../shared/request.ts';
import { computeRequestStats, MAX_PER_TOKEN_VALUES } from '../../shared/stats/request-stats.ts';
import { eventTokensLimit, MAX_TOKEN_COUNT } from '../../shared/stats/token-bounds.ts';
import { getDialect } from './dialects/index.ts';
import { StreamDecoder } from './stream-decoder.ts';
import { VENDORED_CORPUS } from '../testing/corpus.ts';

const CORPUS = readFileSync(path.join(VENDORED_CORPUS, 'sse/vllm-chat-continuous-usage.sse'), 'utf8');
const EVENTS = CORPUS.split('\n\n').filter((e) => e.trim() !== '');
/** The content chunks' indexes (a non-empty delta content). */
const CONTENT = EVENTS.map((e, i) => (/"content":"[^"]/.test(e) ? i : -1)).filter((i) => i >= 0);

/** The stream with each content chunk's completion_tokens (and total) replaced by `counts[j]`. */
function rewritten(counts: readonly string[]): string {
  const out = EVENTS.slice();
  CONTENT.forEach((ei, j) => {
    const c = counts[j % counts.length]!;
    out[ei] = out[ei]!.replace(/"completion_tokens":\d+/, `"completion_tokens":${c}`).replace(
      /"total_tokens":\d+/,
      `"total_tokens":${c}`,
    );
  });
  return out.join('\n\n') + '\n\n';
}

function decode(body: string, maxTokens: number | null) {
  const rec = newRecord({
    id: 'f',
    url: '',
    dialect: 'openai-chat',
    model: 'm',
    startedAtWall: 0,
    maxTokens,
  });
  const d = new StreamDecoder(getDialect('openai-chat'), rec, { maxTokens });
  const bytes = new TextEncoder().encode(body);
  // Several reads, as a socket delivers them.
  for (let at = 0, t = 1; at < bytes.length; at += 700, t += 3) {
    d.pushRead(bytes.subarray(at, at + 700), t, t);
    d.flush();
    if (d.stop) break;
  }
  d.end(9999, 9999);
  d.finalize();
  rec.bytes = bytes.length;
  rec.phases.endMs = 9999;
  return rec;
}

/** A count as a server may write it: an integer up to 2^63, written exactly (digits), or a float. */
const hostileCount = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 63n }).map((b) => b.toString()),
  fc.integer({ min: 0, max: 40 }).map(String),
  fc.constantFrom('5000000000', '4294967296', '4294967295', '9007199254740993', '1e300', '1.5'),
);

describe('per-event token counts from a server (issue 24 point 3)', () => {
  it('the real stream decodes with exact per-event counts (the fixture is what the test says)', () => {
    const rec = decode(CORPUS, 128);
    expect(rec.error).toBeNull();
    expect(rec.tokenSource).toBe('per-event');
    expect(CONTENT.length).toBeGreaterThan(5);
  });

  it('a jump 1 → 5,000,000,000 is refused as protocol/bad-token-count, no wrap, no allocation by it', () => {
    const counts = CONTENT.map((_, j) =>
      j === 0 ? '1' : j === 1 ? '5000000000' : String(5_000_000_000 + j),
    );
    for (const max of [128, null]) {
      const rec = decode(rewritten(counts), max);
      expect(rec.error).toMatchObject({ kind: 'protocol', code: 'bad-token-count' });
      expect(rec.error!.message).toMatch(/5000000000|4999999999/);
      let sum = 0;
      for (let i = 0; i < rec.events.n; i++) sum += rec.events.tokens[i]!;
      expect(sum).toBeLessThan(1000); // 705,032,703 was the uint32 wrap
      const s = computeRequestStats(rec);
      expect(s.itlTokenMs.length).toBeLessThan(1000);
    }
  });

  it('fuzz: any counts up to 2^63 — nothing throws, stored counts are believable, lists bounded', () => {
    fc.assert(
      fc.property(
        fc.array(hostileCount, { minLength: 1, maxLength: CONTENT.length }),
        fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: null }),
        (counts, maxTokens) => {
          const rec = decode(rewritten(counts), maxTokens);
          const limit = eventTokensLimit(maxTokens);
          for (let i = 0; i < rec.events.n; i++) {
            const k = rec.events.tokens[i]!;
            expect(k).toBeLessThanOrEqual(MAX_TOKEN_COUNT);
            if (rec.events.flags[i]! & EV_CONTENT && rec.events.flags[i]! & EV_TOKENS_EXACT)
              expect(k).toBeLessThanOrEqual(limit);
          }
          const s = computeRequestStats(rec);
          expect(s.itlTokenMs.length).toBeLessThanOrEqual(MAX_PER_TOKEN_VALUES + s.itlChunkMs.length);
          expect(s.itlTokenMeasuredMs.length).toBeLessThanOrEqual(MAX_PER_TOKEN_VALUES + s.itlChunkMs.length);
          expect(Number.isFinite(s.outputTokens)).toBe(true);
          if (rec.error?.code === 'bad-token-count') expect(rec.error.kind).toBe('protocol');
        },
      ),
      { numRuns: 300, seed: 24 },
    );
  });
});
