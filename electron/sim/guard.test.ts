/**
 * The simulator has no token, so a page on any site could make the browser drive it (a cross-site
 * POST needs no preflight when its body is text/plain). It answers only requests whose Host names
 * this machine and that carry no foreign Origin — and still answers every client it is for.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ decodeStepMs: 1, allowedHosts: ['sim.internal'] });
});
afterAll(() => sim.close());

const body = JSON.stringify({
  model: 'tokenscope-sim',
  messages: [{ role: 'user', content: 'hi' }],
  max_tokens: 2,
  stream: true,
});

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: sim.port, method, path, headers, setHost: false, agent: false },
      (res) => {
        let text = '';
        res.on('data', (b: Buffer) => (text += b.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? body : undefined);
  });
}

const post = (headers: Record<string, string>) =>
  send('POST', '/v1/chat/completions', { 'content-type': 'text/plain', ...headers });

describe('simulator guard', () => {
  it('refuses a rebound host name, on generation and on GET routes alike', async () => {
    for (const host of ['evil.example', `evil.example:${sim.port}`, 'localhost.evil.example'])
      for (const r of [await post({ host }), await send('GET', '/metrics', { host })]) {
        expect(r.status, host).toBe(403);
        expect(r.text).toMatch(/Host not allowed/);
      }
  });

  it('refuses a page of another site (its Origin), even on a loopback Host', async () => {
    for (const origin of ['https://evil.example', 'null', `http://localhost:${sim.port + 1}`]) {
      const r = await post({ host: `127.0.0.1:${sim.port}`, origin });
      expect(r.status, origin).toBe(403);
      expect(r.text).toMatch(/Cross-origin/);
    }
  });

  it('answers loopback names, IP addresses, --allow-host names, and its own origin', async () => {
    const port = sim.port;
    for (const headers of <Record<string, string>[]>[
      { host: `127.0.0.1:${port}` },
      { host: `localhost:${port}` },
      { host: `[::1]:${port}` },
      { host: `10.1.2.3:${port}` },
      { host: 'sim.internal:8000' },
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
    ]) {
      const r = await post(headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.text).toContain('data: [DONE]');
    }
    expect((await send('GET', '/metrics', { host: `localhost:${port}` })).status).toBe(200);
  });
});
