/**
 * The app's metrics panel fed from a REAL Prometheus (Debian `prometheus`, test-prometheus.ts)
 * instead of the server's /metrics: a target saved with a Prometheus URL and a selector, watched
 * through the same handlers the UI calls, while the built-in simulator streams. Checks the
 * snapshots are dated by Prometheus' scrapes (about 1 s apart, its scrape interval here), the
 * gauges move under load, the counters end equal to the simulator's own, and the errors a user
 * can make (a selector that matches nothing, a bad selector, Prometheus down) are said plainly.
 * Also that the target's API key never goes to Prometheus.
 */
import { untilValue } from '../testing/until.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, streamChat } from '../testing/cli.ts';
import { startPrometheus, type PrometheusHandle } from '../testing/prometheus.ts';
import type { Core } from './core.ts';
import { dispatch } from './handlers.ts';
import { scrapesOf, statesOf, testCore, type RecordedEvent } from '../testing/core.ts';
import { SIM_TARGET_ID } from './targets-service.ts';

let events: RecordedEvent[] = [];
let core: Core;
let prom: PrometheusHandle;
let simUrl: string;

beforeAll(async () => {
  ({ core, events } = await testCore());
  const list = await core.handlers.listTargets();
  if (!list.ok) throw new Error(list.error.message);
  simUrl = list.value.find((t) => t.id === SIM_TARGET_ID)!.baseUrl;
  prom = await startPrometheus([{ job: 'sim', target: new URL(simUrl).host }]);
}, 40_000);

afterAll(async () => {
  await core?.close();
  await prom?.stop();
});

const until = <T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> =>
  untilValue(probe, { timeoutMs: ms, everyMs: 20, what: () => `${what}\n${prom.logs()}` });

const scrapes = (id: string) => scrapesOf(events, id);
const states = (id: string) => statesOf(events, id);

async function save(input: Record<string, unknown>): Promise<string> {
  const r = await core.handlers.saveTarget({ baseUrl: simUrl, dialect: 'openai-chat', ...input } as never);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.id;
}

describe('metrics panel from a Prometheus server', () => {
  it('snapshots per Prometheus scrape; gauges move under load; totals end equal to the server own', async () => {
    const id = await save({ name: 'fleet', prometheusUrl: prom.url, prometheusSelector: ' job="sim" ' });
    const watched = await core.handlers.watchMetrics([id]);
    expect(watched.ok).toBe(true);
    await until('first snapshot', () => scrapes(id)[0]);
    const state = states(id).at(-1)!;
    expect(state).toMatchObject({ source: 'prometheus', selector: '{job="sim"}', status: 'ok' });
    expect(state.url).toBe(new URL(prom.url).href);

    const before = scrapes(id).length;
    const load = Promise.all(Array.from({ length: 6 }, () => streamChat(simUrl, 300)));
    const busy = await until('running ≥ 1 seen through Prometheus', () =>
      scrapes(id).find((s, i) => i >= before && (s.concepts.requestsRunning ?? 0) >= 1),
    );
    expect(busy.profile).toBe('vllm-v1');
    await load;
    const own = (await (await fetch(`${simUrl}/metrics`)).text()).match(
      /^vllm:generation_tokens_total\{[^}]*\} ([0-9.e+]+)$/m,
    );
    const ownTotal = Number(own?.[1]);
    expect(ownTotal).toBeGreaterThanOrEqual(1800);
    const settled = await until('the final counter through Prometheus', () =>
      scrapes(id).find((s) => s.concepts.generationTokensTotal === ownTotal),
    );
    expect(settled.concepts.requestsRunning).toBe(0);

    const all = scrapes(id);
    // Rates are over Prometheus' own intervals: summed back over time they give exactly the
    // counter's growth, from before the load to the settled total.
    const upto = all.indexOf(settled);
    let integral = 0;
    for (let i = before; i <= upto; i++) {
      const r = all[i]!.rates?.generationTokensPerSec ?? 0;
      integral += (r * (all[i]!.wallMs - all[i - 1]!.wallMs)) / 1000;
    }
    const grown = ownTotal - (all[before - 1]!.concepts.generationTokensTotal ?? NaN);
    expect(grown).toBe(1800);
    expect(Math.abs(integral - grown)).toBeLessThan(1e-6 * grown);
    expect(
      Math.max(...all.slice(before, upto + 1).map((s) => s.rates?.generationTokensPerSec ?? 0)),
    ).toBeGreaterThan(100);
    // One snapshot per Prometheus scrape (1 s here), dated by it: strictly increasing, no duplicates
    // from our 1 s polling, and the gaps are Prometheus' interval (never our poll's jitter).
    const gaps = all.slice(1).map((s, i) => s.wallMs - all[i]!.wallMs);
    expect(gaps.length).toBeGreaterThan(3);
    for (const g of gaps) {
      expect(g).toBeGreaterThan(500);
      expect(g).toBeLessThan(3500);
    }
    const median = [...gaps].sort((a, b) => a - b)[gaps.length >> 1]!;
    expect(Math.abs(median - 1000)).toBeLessThan(150);
    // The explorer holds the raw series with Prometheus' target labels.
    expect(
      settled.explorer.some((s) => s.labels.includes('instance=') && s.labels.includes('job="sim"')),
    ).toBe(true);
    expect(settled.explorer.find((s) => s.family === 'vllm:time_to_first_token_seconds')?.type).toBe(
      'histogram',
    );
    await core.handlers.watchMetrics([]);
  }, 60_000);

  it('a selector that matches nothing fails with what to check; a bad one is refused on save', async () => {
    const id = await save({ name: 'nope', prometheusUrl: prom.url, prometheusSelector: '{job="nope"}' });
    await core.handlers.watchMetrics([id]);
    const failing = await until('failing state', () => states(id).find((s) => s.status === 'failing'));
    expect(failing.lastError?.message).toMatch(/no samples for \{job="nope"\}.*check the selector/);
    await core.handlers.watchMetrics([]);

    for (const sel of ['', '{}', 'job=vllm', '{__name__="up"}']) {
      // Through dispatch: the contract's schema validates what crosses the bridge.
      const r = await dispatch(core.handlers, 'saveTarget', [
        {
          name: 'bad',
          baseUrl: simUrl,
          dialect: 'openai-chat',
          prometheusUrl: prom.url,
          prometheusSelector: sel,
        },
      ]);
      expect(r.ok, sel).toBe(false);
      if (!r.ok) expect(r.error.message, sel).toMatch(/prometheusSelector/);
    }
  }, 30_000);

  it('Prometheus down: a network error with backoff', async () => {
    const id = await save({
      name: 'down',
      prometheusUrl: `http://127.0.0.1:${await closedPort()}`,
      prometheusSelector: '{job="sim"}',
    });
    await core.handlers.watchMetrics([id]);
    const failing = await until('failing state', () => states(id).find((s) => s.status === 'failing'));
    expect(failing).toMatchObject({ source: 'prometheus', lastError: { kind: 'network' } });
    expect(failing.nextAttemptInMs).toBeGreaterThan(0);
    await core.handlers.watchMetrics([]);
  });

  it("never sends the target's API key or headers to Prometheus", async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const fake = http.createServer((req, res) => {
      seen.push(req.headers);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } }));
    });
    await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', ok));
    try {
      const id = await save({
        name: 'keyed',
        apiKey: 'sk-very-secret',
        headers: { 'x-tenant': 'acme' },
        prometheusUrl: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
        prometheusSelector: '{job="sim"}',
      });
      await core.handlers.watchMetrics([id]);
      await until('a query reached the fake Prometheus', () => (seen.length > 0 ? true : undefined));
      await core.handlers.watchMetrics([]);
      for (const h of seen) {
        expect(h.authorization).toBeUndefined();
        expect(h['x-tenant']).toBeUndefined();
      }
    } finally {
      await new Promise<void>((ok) => fake.close(() => ok()));
    }
  });
});
