/**
 * `tokenscope metrics` as a process, against the simulator and against broken endpoints on
 * 127.0.0.1:0. Watch-mode tests wait on the lines the CLI prints, never on sleeps.
 * (Lives in electron/metrics/ so `vitest run electron/metrics` covers the command end to end.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../testing/corpus.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import type { ScrapeDigest } from './scrape-digest.ts';
import { closedPort, LiveCli, runCli, serveOnce, streamChat } from '../testing/cli.ts';

type Line = ScrapeDigest & { error?: { kind: string; code: string; message: string } };
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function sim(opts: Parameters<typeof startSim>[0]): Promise<SimServer> {
  const s = await startSim({ port: 0, decodeStepMs: 10, ...opts });
  cleanups.push(() => s.close());
  return s;
}

describe('tokenscope metrics (once)', () => {
  let s: SimServer;
  beforeAll(async () => {
    s = await sim({});
  });

  it('--json against the simulator: vLLM V1, families and series counted, exit 0', async () => {
    await streamChat(s.url, 5);
    const r = await runCli(['metrics', s.url, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const j = JSON.parse(lines[0] as string) as Line;
    expect(j.profile.id).toBe('vllm-v1');
    expect(j.url).toBe(`${s.url}/metrics`);
    expect(j.families).toBeGreaterThan(0);
    expect(j.series).toBeGreaterThan(j.families);
    expect(j.errors).toEqual([]);
    expect(j.rates).toBeNull();
    expect(j.concepts.requestsRunning).toBe(0);
    expect(j.concepts.generationTokensTotal).toBe(s.state().generationTokens);
    expect(j.concepts.ttftHistogram?.count).toBe(1);
    expect(j.concepts.ttftHistogram?.p50).toBeGreaterThan(0);
  });

  it('prints text for people; a /v1 base URL finds /metrics', async () => {
    const r = await runCli(['metrics', `${s.url}/v1`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('vLLM (V1 engine) (vllm-v1)');
    expect(r.stdout).toMatch(/requests running\s+0/);
    expect(r.stdout).toMatch(/generation tokens\s+\d+ total/);
    expect(r.stdout).toMatch(/TTFT\s+n \d+\s+mean/);
    expect(r.stdout).toMatch(/\d+ families · \d+ series · 0 parse errors/);
  });

  it('a quantile in a wide bucket is that bucket, in text and --json, as the app shows it', async () => {
    // Real vLLM V1 bytes: all 140 queue-time observations in the first bucket, le="0.3".
    const body = readFileSync(path.join(CORPUS_DIR, 'metrics/vllm-v1.prom'));
    const srv = await serveOnce((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(body);
    });
    cleanups.push(srv.close);
    const text = await runCli(['metrics', srv.url]);
    expect(text.code, text.stderr).toBe(0);
    const queue = text.stdout.split('\n').find((l) => l.trimStart().startsWith('queue time')) ?? '';
    expect(queue).toMatch(/n 140 .* p50 0–300 ms {2}p90 0–300 ms {2}p99 0–300 ms/);
    expect(queue).not.toMatch(/150\.0 ms|270\.0 ms|297\.0 ms/);
    const j = JSON.parse((await runCli(['metrics', srv.url, '--json'])).stdout) as Line;
    const h = j.concepts.queueTimeHistogram!;
    expect([h.p50Range, h.p90Range, h.p99Range]).toEqual([
      [0, 0.3],
      [0, 0.3],
      [0, 0.3],
    ]);
    // The interpolated number stays (scripts read it), beside the range that qualifies it.
    expect(h.p50).toBeCloseTo(0.15, 9);
  });

  it('a closed port: exit 1 and a network error', async () => {
    const port = await closedPort();
    const r = await runCli(['metrics', `http://127.0.0.1:${port}`, '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as Line;
    expect(j.error).toMatchObject({ kind: 'network', code: 'refused' });
    const t = await runCli(['metrics', `http://127.0.0.1:${port}`]);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain('error (network)');
  });

  it('garbage text, an empty body, HTML and a 500 all exit 1 with the error kind', async () => {
    const bodies: Record<string, [number, string, string]> = {
      '/garbage/metrics': [200, 'text/plain', 'hello world\nthis is {not prometheus\n'],
      '/empty/metrics': [200, 'text/plain; version=0.0.4', ''],
      '/html/metrics': [200, 'text/html', '<html><body>login</body></html>'],
      '/down/metrics': [500, 'application/json', '{"error":{"message":"engine dead"}}'],
    };
    const srv = await serveOnce((req, res) => {
      const [status, type, body] = bodies[req.url ?? ''] ?? [404, 'text/plain', 'no'];
      res.writeHead(status, { 'content-type': type }).end(body);
    });
    cleanups.push(srv.close);
    const want = {
      '/garbage/metrics': ['protocol', /line 1/],
      '/empty/metrics': ['protocol', /0 families/],
      '/html/metrics': ['protocol', /text\/html/],
      '/down/metrics': ['http', /HTTP 500: engine dead/],
    } as const;
    const [t, ...runs] = await Promise.all([
      runCli(['metrics', srv.url + '/garbage/metrics']),
      ...Object.keys(want).map((path) => runCli(['metrics', srv.url + path, '--json'])),
    ]);
    Object.entries(want).forEach(([path, [kind, message]], i) => {
      const r = runs[i]!;
      expect(r.code, path).toBe(1);
      const j = JSON.parse(r.stdout) as Line;
      expect(j.error?.kind, path).toBe(kind);
      expect(j.error?.message, path).toMatch(message);
    });
    expect(t.stderr).toMatch(/^error \(protocol\): .*No metrics in the response: line 1/m);
  });

  it('bad lines are reported with their line numbers; the rest still counts (exit 0)', async () => {
    const body = '# TYPE a gauge\na 1\nb{x="1" 2\nc 3\n';
    const srv = await serveOnce((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(body),
    );
    cleanups.push(srv.close);
    const r = await runCli(['metrics', `${srv.url}/metrics`, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Line;
    expect(j.profile.id).toBe('unknown');
    expect(j.families).toBe(2);
    expect(j.errors.map((e) => e.line)).toEqual([3]);
    const t = await runCli(['metrics', `${srv.url}/metrics`]);
    expect(t.stdout).toMatch(/1 parse errors/);
    expect(t.stdout).toMatch(/line 3: /);
  });

  it('sends --header and --api-key; bad arguments exit 2', async () => {
    let seen: Record<string, unknown> = {};
    const srv = await serveOnce((req, res) => {
      seen = req.headers;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('up 1\n');
    });
    cleanups.push(srv.close);
    const r = await runCli(['metrics', srv.url, '--api-key', 'k1', '-H', 'X-Team: infra', '--json']);
    expect(r.code).toBe(0);
    expect(seen).toMatchObject({ authorization: 'Bearer k1', 'x-team': 'infra' });
    expect((await runCli(['metrics', srv.url, '-H', 'nocolon'])).code).toBe(2);
    const bad = await runCli(['metrics', 'not a url']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"not a url" is not a server URL/);
  });
});

describe('tokenscope metrics --watch', () => {
  it('--json --interval 200 while requests run: rates from the second line on', async () => {
    const s = await sim({});
    const load = Promise.all([1, 2, 3].map(() => streamChat(s.url, 400)));
    await waitFor(() => s.state().generationTokens > 0);
    const cli = new LiveCli(['metrics', s.url, '--watch', '--json', '--interval', '200']);
    try {
      const first = await cli.waitJson<Line>(() => true);
      const second = await cli.waitJson<Line>(() => true, 10_000, first.index + 1);
      expect(first.json.rates).toBeNull();
      const rates = second.json.rates;
      expect(rates).not.toBeNull();
      expect(rates?.intervalSec).toBeGreaterThan(0.1);
      expect(rates?.intervalSec).toBeLessThan(1);
      // 3 sequences at ~10 ms per step: ~300 tokens/s; any positive rate proves the delta math ran.
      expect(rates?.generationTokensPerSec).toBeGreaterThan(10);
      expect(rates?.itl?.count).toBeGreaterThan(0);
      expect(rates?.itl?.p50).toBeGreaterThan(0);
    } finally {
      expect(await cli.interrupt()).toBe(0);
    }
    await s.close();
    await load.catch(() => undefined); // the close cut the streams short; that is fine here
  });

  it('running/waiting gauges move as requests start and finish (max 1 sequence, 3 requests)', async () => {
    const s = await sim({ maxNumSeqs: 1 });
    const cli = new LiveCli(['metrics', s.url, '--watch', '--json', '--interval', '100']);
    try {
      const idle = await cli.waitJson<Line>(() => true);
      expect(idle.json.concepts).toMatchObject({ requestsRunning: 0, requestsWaiting: 0 });
      const load = Promise.all([1, 2, 3].map(() => streamChat(s.url, 30)));
      const busy = await cli.waitJson<Line>(
        (j) => (j.concepts.requestsWaiting ?? 0) >= 1,
        10_000,
        idle.index,
      );
      expect(busy.json.concepts.requestsRunning).toBe(1);
      await load;
      const total = s.state().generationTokens;
      expect(total).toBe(90);
      const done = await cli.waitJson<Line>(
        (j) => j.concepts.generationTokensTotal === total,
        10_000,
        busy.index,
      );
      expect(done.json.concepts).toMatchObject({ requestsRunning: 0, requestsWaiting: 0 });
      expect(done.json.concepts.e2eHistogram?.count).toBe(3);
      // With one slot, the third request queued behind two others: queue time shows it.
      expect(done.json.concepts.queueTimeHistogram?.count).toBe(3);
    } finally {
      expect(await cli.interrupt()).toBe(0);
    }
  });

  it('a failing endpoint is reported on every attempt and exits 1 on Ctrl-C', async () => {
    const port = await closedPort();
    const cli = new LiveCli([
      'metrics',
      `http://127.0.0.1:${port}`,
      '--watch',
      '--json',
      '--interval',
      '100',
    ]);
    const a = await cli.waitJson<Line>(() => true);
    await cli.waitJson<Line>(() => true, 10_000, a.index + 1);
    expect(a.json.error).toMatchObject({ kind: 'network', code: 'refused' });
    expect(await cli.interrupt()).toBe(1);
  });
});

async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
