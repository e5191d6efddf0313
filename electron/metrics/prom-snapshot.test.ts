/**
 * The Prometheus snapshot without a Prometheus: every corpus payload, turned into the series a
 * `{sel}[1m]` query would return (labels plus job/instance, a few samples each), comes back
 * through the exposition and the parser with the same profile and the same concepts as the
 * payload parsed directly. The real-Prometheus path is in prom-api.prometheus.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractConcepts } from '../../shared/metrics/concepts.ts';
import { parsePrometheus } from '../../shared/metrics/prom-parse.ts';
import { parseSelector } from '../../shared/metrics/prom-selector.ts';
import { detectProfile } from '../../shared/metrics/profiles.ts';
import { CORPUS_DIR } from '../testing/corpus.ts';
import type { ApiSeries } from './prom-api-json.ts';
import { snapshotExposition, snapshotQuery } from './prom-snapshot.ts';

const T0 = 1_700_000_000; // seconds

/** What Prometheus holds after scraping `text` at T0-30, T0-15, T0 (values unchanged). */
function asPrometheusWould(text: string, extra: Record<string, string>, times = [T0 - 30, T0 - 15, T0]) {
  const parsed = parsePrometheus(text);
  const out: ApiSeries[] = [];
  for (const f of parsed.families)
    for (const s of f.samples)
      out.push({
        metric: { __name__: s.name, ...s.labels, ...extra },
        points: times.map((t) => ({ t, v: s.value })),
      });
  return out;
}

const payloads = readdirSync(join(CORPUS_DIR, 'metrics')).filter((f) => f.endsWith('.prom'));

describe('snapshotExposition', () => {
  it.each(payloads)('%s: same profile and concepts as the payload scraped directly', (file) => {
    const text = readFileSync(join(CORPUS_DIR, 'metrics', file), 'utf8');
    const direct = parsePrometheus(text);
    const snap = snapshotExposition(asPrometheusWould(text, { job: 'vllm', instance: 'gpu-1:8000' }));
    expect(snap.lastMs).toBe(T0 * 1000);
    expect(snap.intervalMs).toBe(15_000);
    expect(snap.stale).toBe(0);
    const viaProm = parsePrometheus(snap.text, { format: 'text' });
    expect(viaProm.errors).toEqual([]);
    const samples = (r: typeof direct): number => r.families.reduce((n, f) => n + f.samples.length, 0);
    expect(samples(viaProm)).toBe(samples(direct));
    expect(snap.series).toBe(samples(direct));
    const profile = detectProfile(direct);
    expect(detectProfile(viaProm).id).toBe(profile.id);
    // Every histogram comes back as a histogram with the same buckets (types were inferred).
    const hist = (r: typeof direct) =>
      r.families
        .filter((f) => f.histograms?.length)
        .map((f) => [f.name, f.histograms!.map((h) => h.buckets.map((b) => [b.le, b.count]))] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1));
    expect(hist(viaProm)).toEqual(hist(direct));
    expect(extractConcepts(viaProm, profile)).toEqual(extractConcepts(direct, profile));
  });

  it('two instances are summed into one fleet, as sum() would', () => {
    const text = readFileSync(join(CORPUS_DIR, 'metrics', 'vllm-v1.prom'), 'utf8');
    const direct = parsePrometheus(text);
    const profile = detectProfile(direct);
    const one = extractConcepts(direct, profile);
    const series = [
      ...asPrometheusWould(text, { job: 'vllm', instance: 'a:8000' }),
      ...asPrometheusWould(text, { job: 'vllm', instance: 'b:8000' }, [T0 - 29, T0 - 14, T0 + 0.5]),
    ];
    const snap = snapshotExposition(series);
    expect(snap.lastMs).toBe((T0 + 0.5) * 1000);
    const fleet = extractConcepts(parsePrometheus(snap.text), profile);
    expect(fleet.generationTokensTotal).toBe(2 * (one.generationTokensTotal as number));
    expect(fleet.requestsRunning).toBe(2 * (one.requestsRunning as number));
    expect(fleet.ttftHistogram?.count).toBe(2 * (one.ttftHistogram?.count as number));
  });

  it('a server Prometheus stopped scraping is left out, not summed in with old values', () => {
    const live: ApiSeries = {
      metric: { __name__: 'vllm:num_requests_running', instance: 'a' },
      points: [
        { t: T0 - 2, v: 1 },
        { t: T0 - 1, v: 2 },
        { t: T0, v: 3 },
      ],
    };
    const gone: ApiSeries = {
      metric: { __name__: 'vllm:num_requests_running', instance: 'b' },
      points: [
        { t: T0 - 40, v: 7 },
        { t: T0 - 39, v: 7 },
      ],
    };
    const snap = snapshotExposition([live, gone]);
    expect(snap).toMatchObject({ intervalMs: 1000, series: 1, stale: 1, lastMs: T0 * 1000 });
    expect(snap.text).toBe('vllm:num_requests_running{instance="a"} 3\n');
  });

  it('writes NaN, ±Inf, -0, escapes and names Prometheus 3 allows outside the classic charset', () => {
    const snap = snapshotExposition([
      { metric: { __name__: 'g', path: 'a"b\\c\nd' }, points: [{ t: T0, v: NaN }] },
      { metric: { __name__: 'h', 'odd.label': 'x' }, points: [{ t: T0, v: -Infinity }] },
      { metric: { __name__: 'my.metric' }, points: [{ t: T0, v: -0 }] },
      { metric: { __name__: 'c_total' }, points: [{ t: T0, v: 1.5e300 }] },
    ]);
    const r = parsePrometheus(snap.text);
    expect(r.errors).toEqual([]);
    const byName = new Map(r.families.map((f) => [f.name, f]));
    expect(byName.get('g')?.samples[0]?.labels.path).toBe('a"b\\c\nd');
    expect(byName.get('g')?.samples[0]?.value).toBeNaN();
    expect(byName.get('h')?.samples[0]).toMatchObject({ labels: { 'odd.label': 'x' }, value: -Infinity });
    expect(Object.is(byName.get('my.metric')?.samples[0]?.value, -0)).toBe(true);
    expect(byName.get('c_total')).toMatchObject({ type: 'counter', samples: [{ value: 1.5e300 }] });
  });

  it('summaries are recognised by quantile beside _sum/_count', () => {
    const s = (name: string, labels: Record<string, string>, v: number): ApiSeries => ({
      metric: { __name__: name, ...labels },
      points: [{ t: T0, v }],
    });
    const snap = snapshotExposition([
      s('rpc_seconds', { quantile: '0.5' }, 0.1),
      s('rpc_seconds', { quantile: '0.99' }, 0.9),
      s('rpc_seconds_sum', {}, 12),
      s('rpc_seconds_count', {}, 40),
    ]);
    const f = parsePrometheus(snap.text).families.find((x) => x.name === 'rpc_seconds');
    expect(f?.type).toBe('summary');
    expect(f?.summaries?.[0]).toMatchObject({
      sum: 12,
      count: 40,
      quantiles: [{ quantile: 0.5 }, { quantile: 0.99 }],
    });
  });

  it('refuses an empty selector and a selector matching too much, saying what to do', () => {
    expect(() => snapshotQuery(parseSelector('{}'), 60)).toThrow(/needs a label selector/);
    expect(snapshotQuery(parseSelector('job="vllm", instance=~"gpu-.*"'), 60)).toBe(
      '{job="vllm",instance=~"gpu-.*"}[60s]',
    );
    const many = Array.from({ length: 50_001 }, (_, i) => ({
      metric: { __name__: 'x', i: String(i) },
      points: [{ t: T0, v: 1 }],
    }));
    expect(() => snapshotExposition(many)).toThrow(/narrow it/);
  });
});

describe('Scraper reading a Prometheus', () => {
  it('asks again only near Prometheus’ next scrape, not on every poll', async () => {
    const { default: http } = await import('node:http');
    const { Scraper } = await import('./scraper.ts');
    // A fake Prometheus whose samples advance every 300 ms (its "scrape interval").
    const born = Date.now();
    let queries = 0;
    const srv = http.createServer((_req, res) => {
      queries++;
      const k = Math.floor((Date.now() - born) / 300);
      const times = [k - 2, k - 1, k].map((i) => (born + i * 300) / 1000);
      const result = [
        { metric: { __name__: 'vllm:num_requests_running', job: 'x' }, values: times.map((t) => [t, '1']) },
      ];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } }));
    });
    await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
    const port = (srv.address() as { port: number }).port;
    let snapshots = 0;
    const s = new Scraper(
      { url: `http://127.0.0.1:${port}`, prometheus: { selector: '{job="x"}' }, intervalMs: 25 },
      { onScrape: () => snapshots++ },
    );
    s.start();
    await new Promise((r) => setTimeout(r, 1500));
    s.stop();
    await new Promise<void>((ok) => srv.close(() => ok()));
    // ~5 new scrapes in 1.5 s; polled every 25 ms that would be ~60 queries without the gate.
    expect(snapshots).toBeGreaterThanOrEqual(4);
    expect(snapshots).toBeLessThanOrEqual(6);
    expect(queries).toBeLessThan(25);
  });
});

describe('Scraper reading a Prometheus whose clock is off', () => {
  it("measures the offset with time() and dates every snapshot on this machine's clock", async () => {
    const { default: http } = await import('node:http');
    const { Scraper } = await import('./scraper.ts');
    const AHEAD = 5000; // this Prometheus' host clock runs 5 s ahead of ours
    const theirs = () => Date.now() + AHEAD;
    const srv = http.createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('query');
      res.setHeader('content-type', 'application/json');
      if (q === 'time()') {
        const t = theirs() / 1000;
        res.end(
          JSON.stringify({ status: 'success', data: { resultType: 'scalar', result: [t, String(t)] } }),
        );
        return;
      }
      // It scraped the server just now (by its clock) and 300 ms before.
      const times = [theirs() - 300, theirs()].map((t) => t / 1000);
      const result = [
        { metric: { __name__: 'vllm:num_requests_running', job: 'x' }, values: times.map((t) => [t, '1']) },
      ];
      res.end(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } }));
    });
    await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
    const port = (srv.address() as { port: number }).port;
    const seen: { wallMs: number; at: number }[] = [];
    const s = new Scraper(
      { url: `http://127.0.0.1:${port}`, prometheus: { selector: '{job="x"}' }, intervalMs: 100 },
      { onScrape: (r) => seen.push({ wallMs: r.wallMs, at: Date.now() }) },
    );
    s.start();
    await new Promise((r) => setTimeout(r, 700));
    s.stop();
    await new Promise<void>((ok) => srv.close(() => ok()));
    expect(seen.length).toBeGreaterThan(0);
    // Without the correction each would be ~5 s in our future; with it, within a round trip of now.
    for (const x of seen) expect(Math.abs(x.wallMs - x.at)).toBeLessThan(250);
    expect(s.state.clockSkewMs).toBeGreaterThan(AHEAD - 100);
    expect(s.state.clockSkewMs).toBeLessThan(AHEAD + 100);
  });
});
