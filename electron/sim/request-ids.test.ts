/**
 * Response ids: two simulators with the same seed (the app's and a `tokenscope sim`, two shards'
 * servers) never answer the same request with the same id; the seeded part still repeats per seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';
import { chatBody, post, sseJson } from '../testing/sim.ts';

let a: SimServer;
let b: SimServer;
beforeAll(async () => {
  const o = { decodeStepMs: 1, decodeStepPerSeqMs: 0, seed: 7 };
  [a, b] = await Promise.all([startSim(o), startSim(o)]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

/** The ids of the first `n` requests to `s`: the x-request-id header and the chunks' id. */
async function idsOf(s: SimServer, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await post(s, '/v1/chat/completions', chatBody({ max_tokens: 2 }));
    const id = r.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect((sseJson(r.text)[0] as { id: string }).id).toBe(`chatcmpl-${id}`);
    out.push(id);
  }
  return out;
}

describe('simulator response ids', () => {
  it('differ between two instances with the same seed, request for request', async () => {
    const [ia, ib] = [await idsOf(a, 3), await idsOf(b, 3)];
    expect(new Set([...ia, ...ib]).size).toBe(6);
    // Unique per instance (the first 8 digits), the same seeded sequence after them.
    expect(new Set(ia.map((x) => x.slice(0, 8))).size).toBe(1);
    expect(ia[0]!.slice(0, 8)).not.toBe(ib[0]!.slice(0, 8));
    expect(ia.map((x) => x.slice(8))).toEqual(ib.map((x) => x.slice(8)));
  });
});
