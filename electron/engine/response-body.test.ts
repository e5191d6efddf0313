// Answers that are not the stream asked for keep the server's words, reproduced with the
// simulator's faults and read by both connection drivers (the hand-written one for http:, and
// Node's client, as https uses).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireRequest } from './client.ts';
import { io, IoEngine, useIo } from './io/io-engine.ts';
import { defaultEngineConfig } from './engine-config.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import type { DialectId } from '../../shared/dialects.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(async () => {
  await sim.close();
  await io().close();
});

const fire = (fault: string, dialect: DialectId = 'openai-chat') =>
  fireRequest({
    url: sim.url,
    dialect,
    model: 'tokenscope-sim',
    prompt: 'hello there',
    params: { maxTokens: 12, ignoreEos: true },
    headers: { 'x-sim-fault': fault },
  });

describe.each([
  ['raw HTTP/1.1 driver', undefined],
  ["Node's http client", 'node'],
] as const)('%s', (_name, client) => {
  beforeAll(async () => {
    // The I/O threads pick their driver when they start: new threads for each suite.
    await io().close();
    useIo(new IoEngine(defaultEngineConfig({ ioThreads: 1, httpClient: client ?? 'raw' })));
  });

  it('a 307 says where it points; Tokenscope does not follow it', async () => {
    const rec = await fire('redirect');
    expect(rec.error).toMatchObject({ kind: 'http', code: 'status', status: 307 });
    expect(rec.error!.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/v1\/chat\/completions$/);
    expect(rec.error!.message).toMatch(/redirected to http:\/\/.*\/v2\/.*does not follow redirects/);
  });

  it('a 429 and a 503 say when to come back (Retry-After), with the server message', async () => {
    for (const f of ['http-429', 'http-503']) {
      const rec = await fire(f);
      expect(rec.error?.retryAfter, f).toBe('2');
      expect(rec.error!.message, f).toMatch(/\(the server asks to retry after 2 s\)$/);
      expect(rec.error!.status).toBe(Number(f.slice(5)));
    }
  });

  it('stream: true ignored: the JSON result is kept, marked not streamed, e2e only', async () => {
    const rec = await fire('no-stream');
    expect(rec.error).toMatchObject({ kind: 'protocol', code: 'not-streamed' });
    expect(rec.error!.message).toMatch(/Only the end-to-end time \([\d.]+ ms\) is measured/);
    expect(rec.text.length).toBeGreaterThan(0);
    expect(rec.usage?.completionTokens).toBe(12);
    expect(rec.events.n).toBe(0); // no invented token timing
    expect(rec.phases.endMs).toBeGreaterThan(0);
  });

  it('a 200 carrying an error object shows the server’s message', async () => {
    const rec = await fire('json-error-200');
    expect(rec.error).toMatchObject({ kind: 'server', code: 'error-event' });
    expect(rec.error!.message).toMatch(/The engine is overloaded, try again later\./);
  });

  it('a compressed stream is refused plainly, saying what to turn off', async () => {
    const rec = await fire('gzip');
    expect(rec.error).toMatchObject({ kind: 'protocol', code: 'compressed' });
    expect(rec.error!.message).toMatch(/Content-Encoding: gzip.*asked for identity/);
  });
});
