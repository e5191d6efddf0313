// Load runs against a server that advertises keep-alive and closes the connection after every
// streamed response (llama.cpp's server; the simulator's --close-after-stream): the client must
// not manufacture failures. Zero failed requests at concurrency 1 and 32; the retries are counted
// in the run's connection stats and on each request line, never as errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { runAgainst } from '../testing/runs.ts';
import { summaryText } from '../../shared/runs/summary/text.ts';

let llama: SimServer;
beforeAll(async () => {
  llama = await startSim({
    port: 0,
    decodeStepMs: 2,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
    closeAfterStream: true,
  });
});
afterAll(() => llama.close());

const prompts = { type: 'synthetic' as const, inputLen: 8, outputLen: 6 };

describe('a server that closes every kept-alive connection', () => {
  it.each([1, 32])(
    'concurrency %i: no request fails; reused connections it closed are retried',
    async (c) => {
      const n = c === 1 ? 24 : 96;
      const r = await runAgainst(llama, { requests: n, maxConcurrency: c, prompts });
      const s = r.summary;
      expect(s.vllm.failed).toBe(0);
      expect(s.vllm.completed).toBe(n);
      const conns = s.selfCheck!.connections!;
      expect(conns.mode).toBe('keep-alive');
      expect(conns.opened + conns.reused).toBe(n);
      // The client reuses sockets the server is about to close: those requests are retried.
      expect(conns.retried).toBeGreaterThan(0);
      const lines = r.lines.filter((l) => l.connection?.retried);
      expect(lines).toHaveLength(conns.retried);
      for (const l of lines) {
        expect(l.status).toBe('ok');
        expect(l.connection!.retryReason).toMatch(/reset/i);
        // `reused` is the connection that carried the response: the retry's new one.
        expect(l.connection!.reused).toBe(false);
      }
      // "N opened, 0 reused, 1 retried" read as a contradiction: the line says why.
      expect(summaryText(s)).toMatch(
        /\d+ opened, \d+ reused, \d+ retried \(first sent on a reused connection the server had closed, then on a new one, counted as opened\)/,
      );
    },
  );

  it('connection: close: one new connection per request, nothing retried, nothing failed', async () => {
    const r = await runAgainst(llama, { requests: 24, maxConcurrency: 4, prompts, connection: 'close' });
    expect(r.summary.vllm.failed).toBe(0);
    expect(r.summary.selfCheck!.connections).toEqual({ mode: 'close', opened: 24, reused: 0, retried: 0 });
  });
});
