/**
 * The fleet source against a REAL Prometheus (Debian `prometheus`, see test-prometheus.ts)
 * scraping the simulator every second. Checks what Prometheus answers through prom-api.ts against
 * the simulator's own /metrics: counter totals equal, gauges move under load, and the server-side
 * TTFT quantiles equal our own histogram_quantile on the sim's buckets. Waits poll the API, bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractConcepts } from '../../shared/metrics/concepts.ts';
import { histogramQuantile } from '../../shared/metrics/prom-math.ts';
import { parsePrometheus } from '../../shared/metrics/prom-parse.ts';
import { PROFILES, type ProfileId } from '../../shared/metrics/profiles.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import {
  detectFleetProfile,
  PromApiClient,
  queryFleetRange,
  type FleetResult,
  type FleetTarget,
  type PromResult,
  type FleetSeries,
} from '../metrics/prom-api.ts';
import { fleetQueries, parseSelector } from '../metrics/promql.ts';
import { closedPort, LiveCli, runCli, streamChat } from '../testing/cli.ts';
import { runFleet } from './fleet.ts';
import { poll, startPrometheus, type PrometheusHandle } from '../testing/prometheus.ts';

const SEL = '{job="sim"}';
let sim: SimServer;
let prom: PrometheusHandle;
let client: PromApiClient;

beforeAll(async () => {
  // Two slots, 10 ms steps: six 200-token requests keep some waiting for ~4 s (several scrapes).
  sim = await startSim({ port: 0, maxNumSeqs: 2, decodeStepMs: 10 });
  prom = await startPrometheus([{ job: 'sim', target: `127.0.0.1:${sim.port}` }]);
  client = new PromApiClient({ url: prom.url, timeoutMs: 5000 });
}, 40_000);

afterAll(async () => {
  await prom?.stop();
  await sim?.close();
});

/** The value of one instant query, or undefined when Prometheus has no sample (yet). */
async function value(query: string): Promise<number | undefined> {
  const r = await client.query(query);
  if (!r.ok) throw new Error(`${query}: ${r.error.message}\n${prom.logs()}`);
  return r.value.series[0]?.points[0]?.v;
}

function series(r: FleetResult, concept: keyof FleetResult['concepts']): FleetSeries {
  const c = r.concepts[concept];
  if (c === undefined || 'error' in c) throw new Error(`${concept}: ${c ? c.error.message : 'not mapped'}`);
  return c;
}
const last = (s: FleetSeries): number => s.points[s.points.length - 1]?.v ?? NaN;
/** The concepts now: a range query of one instant (the fleet source's only query path). */
function fleetNow(client: PromApiClient, target: FleetTarget): Promise<PromResult<FleetResult>> {
  const t = Date.now() / 1000;
  return queryFleetRange(client, target, { startSec: t, endSec: t, stepSec: 1 });
}

describe('fleet source against a real Prometheus', () => {
  it('Prometheus scrapes the simulator and the profile is detected from its names', async () => {
    await poll('up{job="sim"} == 1', async () => ((await value('up{job="sim"}')) === 1 ? true : undefined));
    const d = await detectFleetProfile(client, SEL);
    if (!d.ok) throw new Error(d.error.message);
    expect(d.value).toMatchObject({ profile: 'vllm-v1', mangled: false });
    expect(d.value.names).toContain('vllm:generation_tokens_total');
  }, 40_000);

  it('gauges under load, totals equal the sim counters, TTFT quantiles equal ours', async () => {
    const q = fleetQueries('vllm-v1', { matchers: parseSelector(SEL) });
    const loadStartSec = Date.now() / 1000;
    const load = Promise.all(Array.from({ length: 6 }, () => streamChat(sim.url, 200)));
    // Both gauges seen through Prometheus while the requests run.
    const busy = await poll('running ≥ 1 and waiting ≥ 1 in Prometheus', async () => {
      const [running, waiting] = [await value(q.requestsRunning!), await value(q.requestsWaiting!)];
      return running !== undefined && waiting !== undefined && running >= 1 && waiting >= 1
        ? { running, waiting }
        : undefined;
    });
    expect(busy.running).toBeLessThanOrEqual(2);
    await load;
    // The simulator's own view, through our parser and profile.
    const own = extractConcepts(
      parsePrometheus(await (await fetch(`${sim.url}/metrics`)).text()),
      PROFILES['vllm-v1'],
    );
    const generated = sim.state().generationTokens;
    expect(generated).toBe(1200);
    expect(own.generationTokensTotal).toBe(generated);
    await poll('Prometheus has the final counter', async () =>
      (await value(q.generationTokensTotal!)) === generated ? true : undefined,
    );

    const r = await fleetNow(client, { selector: SEL, window: '5m' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.profile).toBe('vllm-v1');
    expect(last(series(r.value, 'generationTokensTotal'))).toBe(generated);
    expect(last(series(r.value, 'promptTokensTotal'))).toBe(own.promptTokensTotal);
    expect(last(series(r.value, 'requestsRunning'))).toBe(0);
    expect(last(series(r.value, 'requestsWaiting'))).toBe(0);
    expect(last(series(r.value, 'generationTokensPerSec'))).toBeGreaterThan(0);
    // The six requests send one prompt: the sim's prefix cache hits from the second on, and the
    // hit rate through Prometheus is its counters' ratio.
    const st = sim.state();
    expect(st.prefixCacheHits).toBeGreaterThan(0);
    expect(last(series(r.value, 'prefixCacheHitRate'))).toBeCloseTo(
      st.prefixCacheHits / st.prefixCacheQueries,
      6,
    );
    // Every observation lies inside the 5m window and every bucket started at 0 there, so the
    // rate-based quantile equals the quantile of the sim's cumulative buckets.
    const ttft = own.ttftHistogram!;
    expect(ttft.count).toBe(6);
    for (const [k, qv] of [
      ['ttftP50', 0.5],
      ['ttftP90', 0.9],
      ['ttftP99', 0.99],
    ] as const) {
      const got = last(series(r.value, k));
      expect(Number.isFinite(got), k).toBe(true);
      expect(got).toBeGreaterThan(0);
      expect(got).toBeLessThan(10);
      expect(Math.abs(got - histogramQuantile(qv, ttft.buckets)) / got, k).toBeLessThan(1e-6);
    }
    expect(last(series(r.value, 'ttftMean'))).toBeCloseTo(ttft.sum / ttft.count, 6);
    expect(last(series(r.value, 'queueTimeP99'))).toBeGreaterThan(0); // four of six had to queue
    expect(last(series(r.value, 'itlP50'))).toBeGreaterThan(0);

    // The same concepts as series over time (query_range), in seconds.
    // Steps count back from now, so the last point is evaluated after the final scrape.
    const endSec = Date.now() / 1000;
    const startSec = endSec - Math.ceil(endSec - loadStartSec + 3);
    const range = await queryFleetRange(
      client,
      { selector: SEL, profile: 'vllm-v1', window: '5m' },
      {
        startSec,
        endSec,
        stepSec: 1,
      },
    );
    if (!range.ok) throw new Error(range.error.message);
    const gen = series(range.value, 'generationTokensTotal').points;
    expect(gen.length).toBeGreaterThan(3);
    for (let i = 1; i < gen.length; i++) {
      expect(gen[i]!.t - gen[i - 1]!.t).toBeCloseTo(1, 6);
      expect(gen[i]!.v).toBeGreaterThanOrEqual(gen[i - 1]!.v);
    }
    // Points sit on start + k·step (none before Prometheus' first scrape of the sim).
    const k = gen[0]!.t - startSec;
    expect(k).toBeGreaterThanOrEqual(0);
    expect(k).toBeCloseTo(Math.round(k), 3);
    expect(gen[gen.length - 1]!.t).toBeCloseTo(endSec, 3);
    expect(gen[gen.length - 1]!.v).toBe(generated);
    const waiting = series(range.value, 'requestsWaiting').points.map((p) => p.v);
    expect(Math.max(...waiting)).toBeGreaterThanOrEqual(1);
    expect(waiting[waiting.length - 1]).toBe(0);
  }, 60_000);

  it('a model filter selects only that model', async () => {
    const none = await fleetNow(client, { selector: SEL, profile: 'vllm-v1', model: 'other-model' });
    expect(none.ok && series(none.value, 'generationTokensTotal').points).toEqual([]);
    const mine = await fleetNow(client, {
      selector: SEL,
      profile: 'vllm-v1',
      model: 'tokenscope-sim',
    });
    expect(mine.ok && last(series(mine.value, 'generationTokensTotal'))).toBe(sim.state().generationTokens);
  });

  it('Prometheus accepts the PromQL of every profile', async () => {
    for (const id of Object.keys(PROFILES) as ProfileId[]) {
      const queries = fleetQueries(id, {
        matchers: parseSelector('{job="sim",instance=~".+"}'),
        model: 'm',
        window: '2m',
      });
      for (const [concept, query] of Object.entries(queries)) {
        const r = await client.query(query);
        expect(r.ok ? 'ok' : `${id}.${concept}: ${r.error.message}`).toBe('ok');
      }
    }
  }, 30_000);

  it('classifies real Prometheus errors: bad_data with errorType, not-Prometheus, closed port', async () => {
    expect(await client.query('sum(')).toMatchObject({
      ok: false,
      error: { kind: 'http', status: 400, errorType: 'bad_data' },
    });
    expect(await client.queryRange('up', 10, 5, 1)).toMatchObject({
      ok: false,
      error: { errorType: 'bad_data' },
    });
    const notProm = new PromApiClient({ url: sim.url });
    expect(await notProm.query('up')).toMatchObject({ ok: false, error: { kind: 'http', status: 404 } });
    const closed = new PromApiClient({ url: `http://127.0.0.1:${await closedPort()}` });
    expect(await fleetNow(closed, { selector: SEL })).toMatchObject({
      ok: false,
      error: { kind: 'network' },
    });
  });
});

describe('tokenscope metrics --prometheus (the fleet source from the CLI)', () => {
  it('prints the concepts of the selected servers from Prometheus, text and JSON', async () => {
    // The load of the tests above is in Prometheus by now (they ran first, in this file).
    await poll('generation tokens in Prometheus', async () =>
      ((await value('vllm:generation_tokens_total{job="sim"}')) ?? 0) > 0 ? true : undefined,
    );
    let text = '';
    const code = await runFleet(
      prom.url,
      { selector: SEL, range: '2m', step: '5s', header: [] },
      (s) => (text += s),
    );
    expect(code).toBe(0);
    expect(text).toMatch(/selector \{job="sim"\} · vLLM/);
    const gen = text.split('\n').find((l) => l.startsWith('generationTokensTotal'))!;
    expect(gen).toBeDefined();
    const lastGen = Number(gen.trim().split(/\s+/)[1]);
    expect(lastGen).toBe(await value('vllm:generation_tokens_total{job="sim"}'));
    expect(text).toMatch(/^requestsRunning\s+0\s/m);

    let json = '';
    expect(
      await runFleet(
        prom.url,
        { selector: SEL, range: '2m', step: '5s', json: true, header: [] },
        (s) => (json += s),
      ),
    ).toBe(0);
    const j = JSON.parse(json) as {
      profile: string;
      concepts: Record<string, { points: { t: number; v: number }[] }>;
    };
    expect(j.profile).toBe('vllm-v1');
    const pts = j.concepts.generationTokensTotal!.points;
    expect(pts.length).toBeGreaterThan(1);
    expect(pts[pts.length - 1]!.v).toBe(lastGen);
  }, 40_000);

  it('exit 1 with a clear error when the selector matches nothing or Prometheus is down; 2 on bad arguments', async () => {
    let out = '';
    expect(
      await runFleet(
        prom.url,
        { selector: '{job="nope"}', range: '1m', step: '5s', json: true, header: [], profile: 'vllm-v1' },
        (s) => (out += s),
      ),
    ).toBe(1);
    const port = await closedPort();
    out = '';
    expect(
      await runFleet(
        `http://127.0.0.1:${port}`,
        { selector: SEL, header: [], json: true },
        (s) => (out += s),
      ),
    ).toBe(1);
    expect(JSON.parse(out).error.kind).toBe('network');
    expect(await runFleet(prom.url, { header: [], json: true }, () => undefined)).toBe(2);
    expect(
      await runFleet(
        prom.url,
        { selector: SEL, range: 'ten minutes', header: [], json: true },
        () => undefined,
      ),
    ).toBe(2);
  }, 30_000);

  it('--watch: one line per Prometheus scrape, dated by it, with rates; a missing selector exits 2', async () => {
    type Line = { time: string; profile: { id: string }; rates: { intervalSec: number } | null; url: string };
    // Polled every 200 ms, Prometheus scrapes every second: one line per scrape, not per poll.
    const cli = new LiveCli([
      'metrics',
      prom.url,
      '--prometheus',
      '--selector',
      SEL,
      '--watch',
      '--json',
      '--interval',
      '200',
    ]);
    try {
      const first = await cli.waitJson<Line>(() => true, 15_000);
      const second = await cli.waitJson<Line>(() => true, 10_000, first.index + 1);
      const third = await cli.waitJson<Line>(() => true, 10_000, second.index + 1);
      expect(first.json).toMatchObject({ profile: { id: 'vllm-v1' }, rates: null, url: `${prom.url}/` });
      for (const [a, b] of [
        [first, second],
        [second, third],
      ] as const) {
        const gapS = (Date.parse(b.json.time) - Date.parse(a.json.time)) / 1000;
        expect(gapS).toBeGreaterThan(0.5);
        expect(gapS).toBeLessThan(2.5);
        expect(b.json.rates?.intervalSec).toBeCloseTo(gapS, 2);
      }
    } finally {
      expect(await cli.interrupt()).toBe(0);
    }
    const bad = await runCli(['metrics', prom.url, '--prometheus', '--selector', '{}', '--watch', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toMatch(/needs a label selector/);
  }, 40_000);
});
