/**
 * PromQL built from the server profiles. Exact strings for the shapes that matter (gauge, counter
 * total and rate, histogram quantile and mean, alternatives, optional parts, unit scale, label
 * match); that Prometheus itself accepts every query is proven in prom-api.prometheus.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROFILES, type ProfileId } from '../../shared/metrics/profiles.ts';
import { detectionQuery, fleetQueries, parseSelector, promString } from './promql.ts';

const SEL = parseSelector('{job="vllm",instance="10.0.0.1:8000"}');
const S = 'job="vllm",instance="10.0.0.1:8000"';

describe('parseSelector', () => {
  it('takes matchers with or without braces, all four operators and PromQL quotes', () => {
    expect(parseSelector('{job="vllm", instance=~"10\\\\.0.*" ,env!="dev",x!~\'a|b\',}')).toEqual([
      { label: 'job', op: '=', quoted: '"vllm"' },
      { label: 'instance', op: '=~', quoted: '"10\\\\.0.*"' },
      { label: 'env', op: '!=', quoted: '"dev"' },
      { label: 'x', op: '!~', quoted: "'a|b'" },
    ]);
    expect(parseSelector('job="a"')).toEqual([{ label: 'job', op: '=', quoted: '"a"' }]);
    expect(parseSelector('{}')).toEqual([]);
    expect(parseSelector('  ')).toEqual([]);
  });

  it.each([
    ['up{job="a"}', /expected label/],
    ['{job="a"', /does not end/],
    ['{job=a}', /expected label/],
    ['{__name__="x"}', /__name__/],
    ['{job="a" instance="b"}', /expected ","/],
    ['{job="a\nb"}', /expected label/],
  ])('rejects %j', (sel, msg) => {
    expect(() => parseSelector(sel)).toThrow(msg);
  });

  it('round-trips any label value written as a JSON string (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/), fc.string()), { maxLength: 4 }),
        (pairs) => {
          const written = pairs.filter(([k]) => k !== '__name__').map(([k, v]) => `${k}=${promString(v)}`);
          const parsed = parseSelector(`{${written.join(',')}}`);
          expect(parsed.map((m) => `${m.label}${m.op}${m.quoted}`)).toEqual(written);
        },
      ),
    );
  });
});

describe('fleetQueries', () => {
  const v1 = fleetQueries('vllm-v1', { matchers: SEL, window: '30s' });

  it('gauges as sum, fractions as avg, counters as sum and sum(rate)', () => {
    expect(v1.requestsRunning).toBe(`sum(vllm:num_requests_running{${S}})`);
    expect(v1.kvCacheUsage).toBe(
      `(avg(vllm:kv_cache_usage_perc{${S}})) or (avg(vllm:gpu_cache_usage_perc{${S}}))`,
    );
    expect(v1.generationTokensTotal).toBe(`sum(vllm:generation_tokens_total{${S}})`);
    expect(v1.generationTokensPerSec).toBe(`sum(rate(vllm:generation_tokens_total{${S}}[30s]))`);
  });

  it('histograms as histogram_quantile over sum by (le) of rate, and the window mean', () => {
    expect(v1.ttftP99).toBe(
      `histogram_quantile(0.99, sum by (le) (rate(vllm:time_to_first_token_seconds_bucket{${S}}[30s])))`,
    );
    expect(v1.e2eMean).toBe(
      `sum(rate(vllm:e2e_request_latency_seconds_sum{${S}}[30s])) / sum(rate(vllm:e2e_request_latency_seconds_count{${S}}[30s]))`,
    );
    // A renamed metric is an alternative: the first with data wins.
    expect(v1.itlP50).toBe(
      `(histogram_quantile(0.5, sum by (le) (rate(vllm:inter_token_latency_seconds_bucket{${S}}[30s])))) or ` +
        `(histogram_quantile(0.5, sum by (le) (rate(vllm:time_per_output_token_seconds_bucket{${S}}[30s]))))`,
    );
  });

  it('prefix-cache hit rate: ratio of counter rates, else the V0 gauge without its -1', () => {
    expect(v1.prefixCacheHitRate).toContain(
      `((sum(rate(vllm:prefix_cache_hits_total{${S}}[30s]))) or (sum(rate(vllm:gpu_prefix_cache_hits_total{${S}}[30s])))) / (`,
    );
    expect(v1.prefixCacheHitRate).toMatch(/ or \(avg\(vllm:gpu_prefix_cache_hit_rate\{[^}]+\} >= 0\)\)$/);
  });

  it('label matches, unit scales, optional parts and ratios', () => {
    const triton = fleetQueries('triton', { matchers: SEL });
    expect(triton.requestsRunning).toBe(`sum(nv_trt_llm_request_metrics{request_type="active",${S}})`);
    expect(triton.ttftP50).toBe(
      `histogram_quantile(0.5, sum by (le) (rate(nv_inference_first_response_histogram_ms_bucket{${S}}[1m]))) * 0.001`,
    );
    const llama = fleetQueries('llamacpp', { matchers: [] });
    expect(llama.promptTokensPerSec).toBe(
      '(sum(rate(llamacpp:prompt_tokens_total[1m]))) + (sum(rate(llamacpp:prompt_tokens_cached_total[1m])) or vector(0))',
    );
    expect(fleetQueries('tgi', { matchers: [] }).kvCacheUsage).toBe(
      '(sum(tgi_batch_current_max_tokens)) / (sum(tgi_batch_max_total_tokens))',
    );
  });

  it('only concepts the server has: no TTFT on TGI, no histograms on llama.cpp', () => {
    const tgi = fleetQueries('tgi', { matchers: [] });
    expect(tgi.ttftP50).toBeUndefined();
    expect(tgi.e2eP99).toBeDefined();
    const llama = fleetQueries('llamacpp', { matchers: [] });
    expect(Object.keys(llama).some((k) => /P\d\d|Mean$/.test(k))).toBe(false);
    expect(Object.keys(fleetQueries('unknown', { matchers: [] }))).toEqual([]);
  });

  it('--model filters on the profile model label, and only where there is one', () => {
    const m = fleetQueries('vllm-v1', { matchers: [], model: 'llama "3"' });
    expect(m.requestsRunning).toBe('sum(vllm:num_requests_running{model_name="llama \\"3\\""})');
    expect(fleetQueries('triton', { matchers: [], model: 'x' }).requestsWaiting).toContain('model="x"');
    expect(fleetQueries('tgi', { matchers: [], model: 'x' }).requestsRunning).toBe(
      'sum(tgi_batch_current_size)',
    );
  });

  it('mangled names (OpenMetrics `:` → `_`) and bad windows', () => {
    const m = fleetQueries('vllm-v1', { matchers: [], mangled: true });
    expect(m.requestsRunning).toBe('sum(vllm_num_requests_running)');
    expect(() => fleetQueries('vllm-v1', { matchers: [], window: '1 minute' })).toThrow(/duration/);
  });

  it('every profile yields queries without placeholders or unbalanced parentheses', () => {
    for (const id of Object.keys(PROFILES) as ProfileId[]) {
      for (const q of Object.values(fleetQueries(id, { matchers: SEL, model: 'm' }))) {
        expect(q).not.toMatch(/undefined|NaN/);
        let depth = 0;
        for (const ch of q) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
        expect(depth, q).toBe(0);
      }
    }
  });
});

it('detectionQuery lists only inference-server names for the target', () => {
  expect(detectionQuery(parseSelector('job="vllm"'))).toBe(
    'count by (__name__, engine) ({__name__=~"(vllm|sglang|llamacpp)[:_].+|tgi_.+|nv_inference_.+|nv_trt_llm_.+",job="vllm"})',
  );
});
