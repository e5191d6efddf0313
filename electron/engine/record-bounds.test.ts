// A request's record is bounded whatever the server does: a server that ignores max_tokens is
// stopped past it (reproduced with the simulator's ignore-max-tokens fault), and an endless stream
// keeps times and token counts but no more text past the record's text limit, then stops at its
// event limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireRequest } from './client.ts';
import { StreamDecoder } from './stream-decoder.ts';
import { overMaxTokensLimit } from './record-limits.ts';
import { getDialect } from './dialects/index.ts';
import { newRecord } from '../../shared/record.ts';
import { EV_CONTENT } from '../../shared/request.ts';
import { io } from './io/io-engine.ts';
import { startSim, type SimServer } from '../sim/index.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0, jitter: 0 });
});
afterAll(async () => {
  await sim.close();
  await io().close();
});

describe('a server that ignores max_tokens', () => {
  it(
    'is stopped as protocol/over-max-tokens a margin past the limit, with what came kept',
    { timeout: 30_000 },
    async () => {
      const rec = await fireRequest({
        url: sim.url,
        dialect: 'openai-chat',
        model: 'tokenscope-sim',
        prompt: 'go on forever',
        params: { maxTokens: 40 },
        headers: { 'x-sim-fault': 'ignore-max-tokens' },
      });
      expect(rec.error).toMatchObject({ kind: 'protocol', code: 'over-max-tokens' });
      expect(rec.error!.message).toMatch(/max_tokens=40/);
      let tokens = 0;
      for (let i = 0; i < rec.events.n; i++)
        if (rec.events.flags[i]! & EV_CONTENT) tokens += rec.events.tokens[i]!;
      expect(tokens).toBeGreaterThan(overMaxTokensLimit(40));
      expect(tokens).toBeLessThan(overMaxTokensLimit(40) + 20); // stopped promptly, not at 1,000,000
      expect(rec.text.length).toBeGreaterThan(0);
      expect(rec.terminated).toBe(false);
    },
  );

  it('a server that honours max_tokens is never flagged (the margin covers counting differences)', async () => {
    const rec = await fireRequest({
      url: sim.url,
      dialect: 'openai-chat',
      model: 'tokenscope-sim',
      prompt: 'exactly forty',
      params: { maxTokens: 40, ignoreEos: true },
    });
    expect(rec.error).toBeNull();
    expect(rec.terminated).toBe(true);
  });

  it('the margin is max(16, 10 %)', () => {
    expect(overMaxTokensLimit(10)).toBe(26);
    expect(overMaxTokensLimit(1000)).toBe(1100);
  });
});

describe('an endless stream', () => {
  const dialect = getDialect('openai-chat');
  const chunk = (i: number): Uint8Array =>
    new TextEncoder().encode(`data: {"choices":[{"index":0,"delta":{"content":"token ${i} "}}]}\n\n`);

  it('keeps times and tokens but no more text past the text limit, then stops at the event limit', () => {
    const rec = newRecord({
      id: 'x',
      url: '',
      dialect: 'openai-chat',
      model: 'm',
      startedAtWall: 0,
      raw: [],
    });
    const d = new StreamDecoder(dialect, rec, { maxTextChars: 10_000, maxEvents: 5_000 });
    let i = 0;
    while (!d.stop && i < 100_000) {
      d.pushRead(chunk(i), i * 0.01, i);
      d.flush();
      i++;
    }
    expect(d.stop).toBe(true);
    expect(rec.error).toMatchObject({ kind: 'client', code: 'record-limit' });
    expect(rec.events.n).toBe(5_000); // stopped at the limit, not at the 100,000 offered
    expect(rec.textCapped).toBe(true);
    // Text stops near its limit; every event's time is still there.
    expect(rec.text.length).toBeLessThan(10_000);
    expect(rec.text.startsWith('token 0 token 1 ')).toBe(true);
    expect(rec.events.t[4_999]).toBeCloseTo(49.99, 6);
    const keptRaw = (rec.raw ?? []).reduce((n, r) => n + r.length, 0);
    expect(keptRaw).toBeLessThan(10_000);
    expect(rec.raw).toHaveLength(5_000); // aligned with the events, empty past the limit
  });
});

describe('every framed unit counts against the limit, checked while framing (in the decode slices)', () => {
  const enc = new TextEncoder();
  const fresh = (dialect: 'openai-chat' | 'ollama-generate', maxEvents: number) => {
    const rec = newRecord({ id: 'x', url: '', dialect, model: 'm', startedAtWall: 0, raw: [] });
    return { rec, d: new StreamDecoder(getDialect(dialect), rec, { maxEvents }) };
  };

  it.each([
    ['comments', ': keep-alive\n'],
    ['blank lines', '\n'],
    ['event:-only blocks', 'event: ping\n\n'],
  ])('SSE %s stop the request at the limit though they frame no event', (_name, unit) => {
    const { rec, d } = fresh('openai-chat', 1_000);
    d.pushRead(enc.encode('data: {"choices":[{"index":0,"delta":{"content":"kept"}}]}\n\n'), 0, 0);
    let i = 1;
    for (; !d.stop && i < 10_000; i++) {
      d.pushRead(enc.encode(unit.repeat(10)), i, i);
      d.flush();
    }
    expect(d.stop).toBe(true);
    expect(i).toBeLessThan(150); // ~1,000 units of 10 a read, not the 10,000 reads offered
    d.finalize();
    expect(rec.error).toMatchObject({ kind: 'client', code: 'record-limit' });
    expect(rec.error!.message).toMatch(/framed units/);
    expect(rec.text).toBe('kept');
  });

  it('NDJSON blank lines count too', () => {
    const { rec, d } = fresh('ollama-generate', 500);
    let i = 0;
    for (; !d.stop && i < 10_000; i++) {
      d.pushRead(enc.encode('  \n\n'), i, i);
      d.flush();
    }
    expect(i).toBeLessThan(300);
    d.finalize();
    expect(rec.error).toMatchObject({ code: 'record-limit' });
  });

  it('a read bringing more events than the room left keeps exactly the limit (data after [DONE])', () => {
    const { rec, d } = fresh('openai-chat', 1_000);
    const head = enc.encode('data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: [DONE]\n\n');
    d.pushRead(head, 0, 0);
    const chunk = 'data: {"choices":[{"index":0,"delta":{"content":"b"}}]}\n\n'.repeat(333);
    // Eight reads wait as bytes: nothing is framed before a slice runs.
    for (let i = 1; i <= 8; i++) d.pushRead(enc.encode(chunk), i, i);
    expect(d.undecoded).toBe(9);
    expect(rec.events.n).toBe(0);
    // Decoded in slices: each leaves the rest waiting, and decodedCost grows with them.
    const costs: number[] = [];
    while (d.flush(256) > 0) costs.push(d.decodedCost);
    expect(d.stop).toBe(true);
    d.finalize();
    expect(costs.length).toBeGreaterThan(1);
    for (let k = 1; k < costs.length; k++) expect(costs[k]!).toBeGreaterThanOrEqual(costs[k - 1]!);
    // Every read counts as decoded at the end: those framed, and those dropped past the limit.
    expect(d.decodedCost).toBe(head.length + 64 + 8 * (chunk.length + 64));
    expect(rec.events.n).toBe(1_000);
    expect(rec.terminated).toBe(true);
    expect(rec.error).toMatchObject({ kind: 'client', code: 'record-limit' });
  });
});
