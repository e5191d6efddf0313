import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from '../../electron/testing/corpus.ts';
import { describe, expect, it } from 'vitest';
import { conceptRates, extractConcepts, type Concepts } from './concepts.ts';
import { histogramQuantile } from './prom-math.ts';
import { parsePrometheus } from './prom-parse.ts';
import { detectProfile, detectProfileId, PROFILES, type ProfileId } from './profiles.ts';

const CORPUS = path.join(CORPUS_DIR, 'metrics') + path.sep;
if (!existsSync(CORPUS))
  throw new Error(`metrics corpus missing: expected it at ${CORPUS} (test-corpus/ in the repo)`);
const parse = (f: string) => parsePrometheus(readFileSync(CORPUS + f, 'utf8'));
const concepts = (f: string): Concepts => {
  const r = parse(f);
  return extractConcepts(r, detectProfile(r));
};

const EXPECTED: Record<string, ProfileId> = {
  'llamacpp.prom': 'llamacpp',
  'llamacpp-2025.prom': 'llamacpp',
  'llamacpp-legacy.prom': 'llamacpp',
  'openmetrics-example.txt': 'vllm-v1',
  'openmetrics-example-plain-names.txt': 'unknown',
  'sglang.prom': 'sglang',
  'sglang-current.prom': 'sglang',
  'tgi.prom': 'tgi',
  'triton.prom': 'triton',
  'vllm-v0.prom': 'vllm-v0',
  'vllm-v1.prom': 'vllm-v1',
  // Telemetry exporters, not servers (their profiles: telemetry.ts).
  'dcgm-exporter.prom': 'unknown',
  'dcgm-exporter-readme.prom': 'unknown',
  'node-exporter.prom': 'unknown',
};

describe('profile detection', () => {
  it('covers every corpus payload', () => {
    const files = readdirSync(CORPUS).filter((f) => f.endsWith('.prom') || f.endsWith('.txt'));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s → %s', (file, id) => {
    expect(detectProfileId(parse(file))).toBe(id);
  });

  it('an empty body is unknown', () => {
    expect(detectProfile(parsePrometheus('')).id).toBe('unknown');
  });
});

describe('concepts per server (test-corpus/FORMATS.md §5)', () => {
  it('vLLM V1', () => {
    const c = concepts('vllm-v1.prom');
    expect(c).toMatchObject({
      requestsRunning: 8,
      requestsWaiting: 3,
      kvCacheUsage: 0.3164893617021277,
      promptTokensTotal: 141797,
      generationTokensTotal: 42975,
      preemptionsTotal: 0,
      prefixCacheHitsTotal: 59552,
      prefixCacheQueriesTotal: 141797,
      prefixCacheHitRate: null,
    });
    expect(c.ttftHistogram?.count).toBe(140);
    expect(c.itlHistogram?.count).toBe(42835);
    expect(c.e2eHistogram?.count).toBe(140);
    expect(c.queueTimeHistogram?.sum).toBeCloseTo(7.951215251315885, 12);
  });

  it('vLLM V0: old names, hit rate -1 means off', () => {
    const c = concepts('vllm-v0.prom');
    expect(c).toMatchObject({
      requestsRunning: 3,
      requestsWaiting: 2,
      kvCacheUsage: 0,
      promptTokensTotal: 5453083,
    });
    expect(c.prefixCacheHitRate).toBeNull();
    expect(c.itlHistogram?.count).toBe(147223); // vllm:time_per_output_token_seconds
    expect(c.queueTimeHistogram).toBeNull();
  });

  it('vLLM over OpenMetrics with mangled sample names', () => {
    const c = concepts('openmetrics-example.txt');
    expect(c).toMatchObject({ generationTokensTotal: 27453, kvCacheUsage: 0.3164893617021277 });
    expect(c.ttftHistogram?.count).toBe(5);
  });

  it('SGLang, old and current', () => {
    const old = concepts('sglang.prom');
    expect(old).toMatchObject({
      requestsRunning: 162,
      requestsWaiting: 2826,
      kvCacheUsage: 0.28,
      prefixCacheHitsTotal: null,
    });
    expect(old.itlHistogram?.count).toBe(7400757); // old name sglang:time_per_output_token_seconds
    const cur = concepts('sglang-current.prom');
    expect(cur).toMatchObject({
      requestsRunning: 12,
      kvCacheUsage: 0.27,
      promptTokensTotal: 423257,
      generationTokensTotal: 88637,
      prefixCacheHitRate: 0.4121389071,
      prefixCacheHitsTotal: 136635,
      preemptionsTotal: 0,
    });
    expect(cur.itlHistogram?.count).toBe(88387);
    expect(cur.queueTimeHistogram).toBeNull();
  });

  it('TGI: histogram sums as token counters, KV proxy, no TTFT', () => {
    const c = concepts('tgi.prom');
    expect(c).toMatchObject({
      requestsRunning: 2,
      requestsWaiting: 0,
      promptTokensTotal: 84971,
      generationTokensTotal: 16912,
    });
    expect(c.kvCacheUsage).toBeCloseTo(4396 / 126768, 12);
    expect(c.ttftHistogram).toBeNull();
    expect(c.itlHistogram?.sum).toBeCloseTo(1.5143728592876382, 12);
    expect(c.e2eHistogram?.count).toBe(64);
    expect(c.queueTimeHistogram?.count).toBe(64);
  });

  it('llama.cpp: cached prompt tokens added where the build has them', () => {
    expect(concepts('llamacpp.prom')).toMatchObject({
      requestsRunning: 3,
      requestsWaiting: 1,
      kvCacheUsage: null,
      promptTokensTotal: 1481210 + 3907550,
      generationTokensTotal: 209771,
      prefixCacheHitsTotal: 3907550,
      prefixCacheQueriesTotal: 1481210 + 3907550,
    });
    expect(concepts('llamacpp-2025.prom')).toMatchObject({
      promptTokensTotal: 1481210,
      prefixCacheQueriesTotal: null,
    });
    expect(concepts('llamacpp-legacy.prom')).toMatchObject({
      kvCacheUsage: 0.0732422,
      promptTokensTotal: 48213,
    });
  });

  it('Triton/TRT-LLM: label-selected gauges and a ms histogram in seconds', () => {
    const c = concepts('triton.prom');
    expect(c).toMatchObject({
      requestsRunning: 11,
      requestsWaiting: 3,
      kvCacheUsage: 0.4875,
      promptTokensTotal: null,
    });
    expect(c.ttftHistogram?.buckets.map((b) => b.le)).toEqual([0.1, 0.5, 2, 5, Infinity]);
    expect(c.ttftHistogram?.sum).toBeCloseTo(47.21153, 9);
  });

  it('unknown servers give nulls', () => {
    const c = concepts('openmetrics-example-plain-names.txt');
    expect(Object.values(c).every((v) => v === null)).toBe(true);
  });
});

const twoEngines = (running: [number, number], prompt: [number, number], hits: [number, number]) =>
  parsePrometheus(
    [
      '# TYPE vllm:num_requests_running gauge',
      `vllm:num_requests_running{engine="0",model_name="a"} ${running[0]}`,
      `vllm:num_requests_running{engine="1",model_name="b"} ${running[1]}`,
      '# TYPE vllm:kv_cache_usage_perc gauge',
      'vllm:kv_cache_usage_perc{engine="0",model_name="a"} 0.2',
      'vllm:kv_cache_usage_perc{engine="1",model_name="b"} 0.4',
      '# TYPE vllm:prompt_tokens_total counter',
      `vllm:prompt_tokens_total{engine="0",model_name="a"} ${prompt[0]}`,
      `vllm:prompt_tokens_total{engine="1",model_name="b"} ${prompt[1]}`,
      '# TYPE vllm:prefix_cache_hits_total counter',
      `vllm:prefix_cache_hits_total{engine="0",model_name="a"} ${hits[0]}`,
      `vllm:prefix_cache_hits_total{engine="1",model_name="b"} ${hits[1]}`,
      '# TYPE vllm:prefix_cache_queries_total counter',
      `vllm:prefix_cache_queries_total{engine="0",model_name="a"} ${prompt[0]}`,
      `vllm:prefix_cache_queries_total{engine="1",model_name="b"} ${prompt[1]}`,
      '# TYPE vllm:time_to_first_token_seconds histogram',
      'vllm:time_to_first_token_seconds_bucket{engine="0",le="0.1",model_name="a"} 1',
      'vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="a"} 2',
      'vllm:time_to_first_token_seconds_count{engine="0",model_name="a"} 2',
      'vllm:time_to_first_token_seconds_sum{engine="0",model_name="a"} 0.3',
      'vllm:time_to_first_token_seconds_bucket{engine="1",le="0.1",model_name="b"} 3',
      'vllm:time_to_first_token_seconds_bucket{engine="1",le="+Inf",model_name="b"} 3',
      'vllm:time_to_first_token_seconds_count{engine="1",model_name="b"} 3',
      'vllm:time_to_first_token_seconds_sum{engine="1",model_name="b"} 0.2',
      '',
    ].join('\n'),
  );

describe('aggregation, filters and rates', () => {
  const p = PROFILES['vllm-v1'];

  it('sums counts across engines, averages fractions, merges histograms', () => {
    const c = extractConcepts(twoEngines([3, 5], [100, 200], [10, 20]), p);
    expect(c.requestsRunning).toBe(8);
    expect(c.kvCacheUsage).toBeCloseTo(0.3, 12);
    expect(c.promptTokensTotal).toBe(300);
    expect(c.ttftHistogram).toEqual({
      buckets: [
        { le: 0.1, count: 4 },
        { le: Infinity, count: 5 },
      ],
      sum: 0.5,
      count: 5,
    });
  });

  it('filters by model name (and by any label)', () => {
    const r = twoEngines([3, 5], [100, 200], [10, 20]);
    expect(extractConcepts(r, p, { model: 'b' })).toMatchObject({
      requestsRunning: 5,
      kvCacheUsage: 0.4,
      promptTokensTotal: 200,
    });
    expect(extractConcepts(r, p, { model: 'b' }).ttftHistogram?.count).toBe(3);
    expect(extractConcepts(r, p, { labels: { engine: '0' } }).requestsRunning).toBe(3);
    expect(extractConcepts(r, p, { model: 'nope' }).requestsRunning).toBeNull();
  });

  it('rates between snapshots, prefix hit rate from counter deltas, resets handled', () => {
    const a = { tMs: 10_000, concepts: extractConcepts(twoEngines([1, 1], [1000, 0], [100, 0]), p) };
    const b = { tMs: 12_000, concepts: extractConcepts(twoEngines([1, 1], [1400, 200], [300, 100]), p) };
    const r = conceptRates(a, b);
    // prompt: 1000 → 1600 in 2 s = 300/s; hits +300 of queries +600 = 0.5
    expect(r.promptTokensPerSec).toBe(300);
    expect(r.prefixCacheHitRate).toBe(0.5);
    expect(r.generationTokensPerSec).toBeNull();
    expect(r.ttft).toMatchObject({ count: 0, reset: false });
    // server restarted: 1600 → 50 means 50 new tokens since the restart → 25/s
    const c = { tMs: 14_000, concepts: extractConcepts(twoEngines([0, 0], [50, 0], [0, 0]), p) };
    expect(conceptRates(b, c).promptTokensPerSec).toBe(25);
  });

  it('server-side quantiles come straight from an extracted histogram', () => {
    const ttft = concepts('vllm-v1.prom').ttftHistogram;
    // same arithmetic as prom-math.test.ts: 0.1 + 0.15·32/58
    expect(histogramQuantile(0.5, ttft?.buckets ?? [])).toBeCloseTo(0.1 + (0.15 * 32) / 58, 12);
  });
});
