import { until as untilCond } from '../testing/until.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { Core } from './core.ts';
import { scrapesOf, statesOf, testCore, type RecordedEvent } from '../testing/core.ts';
import { SIM_TARGET_ID } from './targets-service.ts';

let events: RecordedEvent[] = [];
let core: Core;

beforeAll(async () => {
  ({ core, events } = await testCore());
});
afterAll(async () => {
  await core.close();
});

const until = (pred: () => boolean, ms = 8000): Promise<void> => untilCond(pred, ms, 10);

describe('metrics service', () => {
  it('scrapes the watched simulator: vLLM v1 profile, concepts, rates from the second scrape, every series', async () => {
    const r = await core.handlers.watchMetrics([SIM_TARGET_ID]);
    expect(r.ok).toBe(true);
    const scrapes = () => scrapesOf(events);
    await until(() => scrapes().length >= 2);
    const [a, b] = scrapes();
    expect(a!.profile).toBe('vllm-v1');
    expect(a!.targetId).toBe(SIM_TARGET_ID);
    expect(a!.concepts.requestsRunning).toBe(0);
    expect(a!.concepts.ttftHistogram).not.toBeNull();
    expect(a!.rates).toBeNull();
    expect(b!.rates).not.toBeNull();
    expect(b!.wallMs).toBeGreaterThan(a!.wallMs);
    expect(a!.explorer.some((s) => s.family === 'vllm:num_requests_running')).toBe(true);
    expect(
      a!.explorer.find((s) => s.family === 'vllm:time_to_first_token_seconds')?.buckets?.length,
    ).toBeGreaterThan(5);
    expect(a!.families).toBeGreaterThan(5);
  });

  it("reads the target's telemetry endpoints on the server scrape's tick, a failing one said", async () => {
    const builtin = await core.handlers.listTargets();
    const simTarget = builtin.ok ? builtin.value.find((t) => t.id === SIM_TARGET_ID) : undefined;
    const gpuUrl = simTarget?.telemetryUrls?.[0] ?? '';
    expect(gpuUrl).toMatch(/\/gpu-metrics$/);
    const saved = await core.handlers.saveTarget({
      name: 'with gpus',
      baseUrl: simTarget!.baseUrl,
      dialect: 'openai-chat',
      telemetryUrls: [gpuUrl, 'http://127.0.0.1:9/metrics'],
    });
    const id = saved.ok ? saved.value.id : '';
    await core.handlers.watchMetrics([id]);
    const mine = () => scrapesOf(events).filter((s) => s.targetId === id);
    await until(() => mine().length >= 1);
    const t = mine()[0]!.telemetry!;
    expect(t.map((x) => x.url)).toEqual([gpuUrl, 'http://127.0.0.1:9/metrics']);
    expect(t[0]!.exporter).toBe('dcgm');
    expect(t[0]!.error).toBeNull();
    expect(t[0]!.gpus.length).toBeGreaterThanOrEqual(1);
    expect(t[0]!.gpus[0]!.powerW).toBeGreaterThan(0);
    expect(t[1]!.gpus).toEqual([]);
    expect(t[1]!.error).not.toBeNull();
    await core.handlers.watchMetrics([]);
  });

  it('reports a failing target as state with backoff, and stops when unwatched', async () => {
    const saved = await core.handlers.saveTarget({
      name: 'down',
      baseUrl: 'http://127.0.0.1:9',
      dialect: 'openai-chat',
    });
    const id = saved.ok ? saved.value.id : '';
    await core.handlers.watchMetrics([id]);
    const states = () => statesOf(events, id);
    await until(() => states().some((s) => s.status === 'failing'));
    const failing = states().find((s) => s.status === 'failing')!;
    expect(failing.lastError?.kind).toBe('network');
    expect(failing.consecutiveFailures).toBeGreaterThanOrEqual(1);
    const stopped = await core.handlers.watchMetrics([]);
    expect(stopped.ok && stopped.value).toEqual([]);
  });

  it('restarts a watched scraper when its target was edited (metrics URL, headers), keeps it otherwise', async () => {
    // One server, two metrics paths with different gauges; it records what each scrape sent.
    const seen: { path: string; auth: string | undefined; tenant: string | undefined }[] = [];
    const srv = http.createServer((req, res) => {
      seen.push({
        path: req.url ?? '',
        auth: req.headers.authorization,
        tenant: req.headers['x-tenant'] as string | undefined,
      });
      const running = req.url === '/b/metrics' ? 7 : 1;
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(
        `# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name="m"} ${running}\n`,
      );
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
    try {
      const saved = await core.handlers.saveTarget({
        name: 'edited',
        baseUrl: base,
        dialect: 'openai-chat',
        metricsUrl: `${base}/a/metrics`,
      });
      const id = saved.ok ? saved.value.id : '';
      const scrapes = () => scrapesOf(events, id);
      const first = await core.handlers.watchMetrics([id]);
      expect(first.ok && first.value[0]!.url).toBe(`${base}/a/metrics`);
      await until(() => scrapes().length >= 1);
      expect(scrapes()[0]!.concepts.requestsRunning).toBe(1);

      // Watching again with nothing changed keeps the running scraper and its previous scrape:
      // the next scrape has rates (a new scraper's first one has none).
      const n = scrapes().length;
      await core.handlers.watchMetrics([id]);
      await until(() => scrapes().length > n);
      expect(scrapes()[n]!.rates).not.toBeNull();

      // The user points the target at another metrics path: the next watch scrapes the new one.
      await core.handlers.saveTarget({
        id,
        name: 'edited',
        baseUrl: base,
        dialect: 'openai-chat',
        metricsUrl: `${base}/b/metrics`,
      });
      const second = await core.handlers.watchMetrics([id]);
      expect(second.ok && second.value[0]!.url).toBe(`${base}/b/metrics`);
      await until(() => scrapes().some((x) => x.concepts.requestsRunning === 7));
      expect(scrapes().find((x) => x.concepts.requestsRunning === 7)!.rates).toBeNull(); // a fresh scraper
      const at = seen.length;
      await until(() => seen.length >= at + 1);
      expect(seen.slice(at).every((r) => r.path === '/b/metrics')).toBe(true);

      // Headers and API key edited, URLs the same: restarted with them.
      await core.handlers.saveTarget({
        id,
        name: 'edited',
        baseUrl: base,
        dialect: 'openai-chat',
        metricsUrl: `${base}/b/metrics`,
        headers: { 'x-tenant': 't2' },
        apiKey: 'k2',
      });
      const mark = seen.length;
      await core.handlers.watchMetrics([id]);
      await until(() => seen.slice(mark).some((r) => r.tenant === 't2'));
      expect(seen.slice(mark).find((r) => r.tenant === 't2')!.auth).toBe('Bearer k2');

      // Deleted while watched: its scraper stops, nothing more is fetched.
      await core.handlers.deleteTarget(id);
      const gone = await core.handlers.watchMetrics([id]);
      expect(gone.ok && gone.value).toEqual([]);
      const end = seen.length;
      await new Promise((r) => setTimeout(r, 1300));
      expect(seen.length).toBe(end);
    } finally {
      await core.handlers.watchMetrics([]);
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });

  it("honours the target's scrape interval and timeout", async () => {
    // The simulator, read every 300 ms.
    const list = await core.handlers.listTargets();
    const simUrl = list.ok ? list.value.find((t) => t.builtin)!.baseUrl : '';
    const fast = await core.handlers.saveTarget({
      name: 'fast',
      baseUrl: simUrl,
      dialect: 'openai-chat',
      metricsIntervalMs: 300,
    });
    const fastId = fast.ok ? fast.value.id : '';
    const mine = () => scrapesOf(events, fastId);
    await core.handlers.watchMetrics([fastId]);
    await until(() => mine().length >= 6);
    const t = mine().map((x) => x.wallMs);
    const gaps = t.slice(1).map((v, i) => v - t[i]!);
    const median = [...gaps].sort((a, b) => a - b)[gaps.length >> 1]!;
    expect(median).toBeGreaterThan(200);
    expect(median).toBeLessThan(500);

    // A server that accepts and never answers, with a 250 ms timeout: a timeout error, not a hang.
    const hang = http.createServer(() => undefined);
    await new Promise<void>((ok) => hang.listen(0, '127.0.0.1', ok));
    try {
      const port = (hang.address() as { port: number }).port;
      const slow = await core.handlers.saveTarget({
        name: 'hangs',
        baseUrl: `http://127.0.0.1:${port}`,
        dialect: 'openai-chat',
        metricsTimeoutMs: 250,
      });
      const slowId = slow.ok ? slow.value.id : '';
      const started = performance.now();
      await core.handlers.watchMetrics([slowId]);
      const failingState = () => statesOf(events, slowId).find((s) => s.status === 'failing');
      await until(() => failingState() !== undefined);
      expect(performance.now() - started).toBeLessThan(2000);
      const failing = failingState()!;
      expect(failing.lastError).toMatchObject({
        code: 'timeout',
        message: 'No complete answer within 250 ms.',
      });
    } finally {
      await core.handlers.watchMetrics([]);
      hang.closeAllConnections();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });
});
