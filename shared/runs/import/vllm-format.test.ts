import { describe, expect, it } from 'vitest';
import { importSglangText, detectResultFormat } from './sglang-format.ts';
import { importVllmText } from './vllm-format.ts';

// Written by hand from test-corpus/VLLM-BENCH-RESULT.md §5.2 (defaults: ttft,tpot,itl stats,
// p99 only, no --save-detailed), with the quirks of §5.2's importer rules.
const AGGREGATE = `{"date": "20260822-101500", "endpoint_type": "openai-chat", "backend": "openai-chat",
 "label": null, "model_id": "Qwen/Qwen3-8B", "tokenizer_id": "Qwen/Qwen3-8B", "num_prompts": 3, "gpu": "H100",
 "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 64,
 "duration": 1.5, "completed": 3, "failed": 0,
 "total_input_tokens": 3072, "total_output_tokens": 384,
 "request_throughput": 2.0, "request_goodput:": 1.3333,
 "output_throughput": 256.0, "total_token_throughput": 2304.0,
 "max_output_tokens_per_s": 300.0, "max_concurrent_requests": 3, "rtfx": 0.0,
 "latencies": [0.9, 1.0, 1.1], "queue_times": [0.0, 0.0, 0.0],
 "mean_ttft_ms": 85.2, "median_ttft_ms": 80.1, "std_ttft_ms": 20.3, "p99_ttft_ms": 150.2,
 "mean_tpot_ms": 9.8, "median_tpot_ms": 9.7, "std_tpot_ms": 0.6, "p99_tpot_ms": 11.4,
 "mean_itl_ms": 9.9, "median_itl_ms": 9.5, "std_itl_ms": 3.1, "p99_itl_ms": 21.0}`;

// --save-detailed: seconds everywhere, itls per request, errors "" for success, output_lens 0 for failures.
const DETAILED = {
  date: '20260822-101500',
  backend: 'openai',
  model_id: 'm',
  num_prompts: 3,
  request_rate: 4.0,
  burstiness: 1.0,
  max_concurrency: null,
  duration: 1.0,
  completed: 2,
  failed: 1,
  total_input_tokens: 30,
  total_output_tokens: 5,
  request_throughput: 2.0,
  request_goodput: null,
  output_throughput: 5.0,
  total_token_throughput: 35.0,
  input_lens: [10, 20, 30],
  output_lens: [3, 2, 0],
  ttfts: [0.1, 0.05, 0.0],
  itls: [[0.02, 0.03], [0.04], []],
  latencies: [0.2, 0.12, 0.0],
  start_times: [1000.0, 1000.05, 1000.1],
  queue_times: [0.0, 0.01, 0.02],
  generated_texts: ['a b c', 'd e', ''],
  errors: ['', '', 'Bad Request'],
  max_output_tokens_per_s: 5.0,
  max_concurrent_requests: 2,
  rtfx: 0.0,
  mean_ttft_ms: 75.0,
  median_ttft_ms: 75.0,
  std_ttft_ms: 25.0,
  p99_ttft_ms: 99.5,
};

describe('vLLM result import', () => {
  it('aggregate-only file: reported numbers, quirks handled, what can be recomputed is', () => {
    const r = importVllmText(AGGREGATE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { summary: s, outcomes } = r.value.runs[0]!;
    expect(outcomes).toBeNull();
    expect(s.imported).toBe(true);
    expect(s.source).toBe('vllm');
    expect(s.vllm).toMatchObject({
      completed: 3,
      failed: 0,
      duration: 1.5,
      total_input_tokens: 3072,
      request_goodput: 1.3333,
      max_concurrent_requests: 3,
    });
    expect(s.vllm.p99_ttft_ms).toBe(150.2);
    expect(s.vllm.mean_itl_ms).toBe(9.9);
    expect(s.stats.ttft).toMatchObject({
      mean: 85.2,
      median: 80.1,
      std: 20.3,
      p99: 150.2,
      p90: null,
      count: null,
    });
    expect(s.config).toEqual({ maxConcurrency: 64, requestRate: 'inf', burstiness: 1, numPrompts: 3 });
    // No failures: the always-present latencies give exact E2E statistics.
    expect(s.stats.e2el?.mean).toBeCloseTo(1000, 9);
    expect(s.vllm.median_e2el_ms).toBeCloseTo(1000, 9);
    expect(s.importInfo?.recomputed).toContain('e2el');
    expect(s.importInfo?.metadata).toMatchObject({ gpu: 'H100', label: null, tokenizer_id: 'Qwen/Qwen3-8B' });
    expect(r.value.runs[0]!.model).toBe('Qwen/Qwen3-8B');
  });

  it('older files without "failed": inferred from num_prompts, and said so', () => {
    const r = importVllmText(
      JSON.stringify({
        num_prompts: 5,
        duration: 2,
        completed: 4,
        total_input_tokens: 40,
        total_output_tokens: 8,
        mean_ttft_ms: 10,
        median_ttft_ms: 10,
        std_ttft_ms: 0,
      }),
    );
    expect(r.ok && r.value.runs[0]!.summary.vllm.failed).toBe(1);
    expect(r.ok && r.value.runs[0]!.summary.importInfo!.notes[0]).toMatch(/inferred/);
  });

  it('--save-detailed file: recomputed from the arrays with the native code', () => {
    const r = importVllmText(JSON.stringify(DETAILED));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { summary: s, outcomes } = r.value.runs[0]!;
    expect(outcomes).toHaveLength(3);
    expect(s.measuredBy).toBeUndefined(); // vLLM's client measured it
    const exported = importVllmText(JSON.stringify({ ...DETAILED, tokenscope_version: '0.1.0' }));
    expect(exported.ok && exported.value.runs[0]!.summary.measuredBy).toBe('tokenscope');
    const v = s.vllm;
    expect(v).toMatchObject({
      completed: 2,
      failed: 1,
      total_input_tokens: 30,
      total_output_tokens: 5,
      request_throughput: 2,
      max_concurrent_requests: 2,
    });
    expect(v.mean_ttft_ms).toBeCloseTo(75, 9);
    expect(v.std_ttft_ms).toBeCloseTo(25, 9);
    expect(v.mean_tpot_ms).toBeCloseTo(60, 9); // (200−100)/2 = 50 and (120−50)/1 = 70
    expect(v.mean_itl_ms).toBeCloseTo(30, 9); // pooled [20, 30, 40]
    expect(v.mean_e2el_ms).toBeCloseTo(160, 9);
    expect(v.max_output_tokens_per_s).toBe(5);
    expect(s.stats.client_queue_time?.mean).toBeCloseTo(5, 9); // successful requests' queue times: 0, 10 ms
    expect(s.errors).toEqual({ 'Bad Request': 1 });
    expect(s.config.requestRate).toBe(4);
  });

  it("several results appended (--append-result) and Python's bare Infinity", () => {
    const one = JSON.stringify({ ...DETAILED, request_rate: 'X' }).replace('"X"', 'Infinity');
    const r = importVllmText(`${one}\n${one}`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.runs).toHaveLength(2);
    expect(r.value.runs[1]!.summary.config.requestRate).toBe('inf');
  });

  it('keeps p50 and other reported percentiles (recomputed from the arrays), rtfx, and Tokenscope error kinds', () => {
    const r = importVllmText(
      JSON.stringify({
        ...DETAILED,
        rtfx: 1.5,
        p50_ttft_ms: 75,
        p75_itl_ms: 35,
        errors: ['', '', 'network/reset: the server closed the connection'],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value.runs[0]!.summary.vllm;
    expect(v.p50_ttft_ms).toBeCloseTo(75, 9); // median of 100 and 50 ms
    expect(v.p75_itl_ms).toBeCloseTo(35, 9); // numpy linear on [20, 30, 40]
    expect(v.rtfx).toBe(1.5);
    expect(r.value.runs[0]!.summary.errors).toEqual({ 'network/reset': 1 });
    expect(r.value.runs[0]!.outcomes![2]).toMatchObject({
      ok: false,
      errorKind: 'network',
      errorCode: 'reset',
    });
    // Without arrays the reported keys are kept as reported.
    const agg = importVllmText(
      JSON.stringify({
        duration: 2,
        completed: 4,
        failed: 0,
        mean_ttft_ms: 9,
        p50_ttft_ms: 8,
        p99_ttft_ms: 12,
      }),
    );
    expect(agg.ok && agg.value.runs[0]!.summary.vllm.p50_ttft_ms).toBe(8);
  });

  it('SLOs ride along in an export (tokenscope_slo) and goodput is recomputed on import', () => {
    const withSlo = { ...DETAILED, request_goodput: 1.0, tokenscope_slo: { ttft_ms: 80, e2el_ms: 500 } };
    const r = importVllmText(JSON.stringify(withSlo));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.value.runs[0]!.summary;
    expect(s.slo).toEqual({ ttftMs: 80, e2elMs: 500 });
    // Request 1 (TTFT 100 ms) misses the TTFT SLO, request 2 (50 ms) meets both: 1 good in 1 s.
    expect(s.goodRequests).toBe(1);
    expect(s.vllm.request_goodput).toBe(1);
    expect(s.importInfo!.recomputed).toContain('request_goodput');
  });

  it('rejects what is not a result', () => {
    expect(importVllmText('{"hello": 1}').ok).toBe(false);
    expect(importVllmText('not json').ok).toBe(false);
  });
});

describe('SGLang result import', () => {
  const line = {
    backend: 'sglang-oai',
    dataset_name: 'random',
    request_rate: 'inf',
    max_concurrency: 8,
    duration: 2.0,
    completed: 2,
    total_input_tokens: 30,
    total_output_tokens: 5,
    request_throughput: 1.0,
    input_throughput: 15,
    output_throughput: 2.5,
    mean_e2e_latency_ms: 150,
    median_e2e_latency_ms: 150,
    std_e2e_latency_ms: 50,
    p99_e2e_latency_ms: 199,
    mean_ttft_ms: 1,
    median_ttft_ms: 1,
    std_ttft_ms: 0,
    p99_ttft_ms: 1,
    mean_tpot_ms: 7,
    median_tpot_ms: 7,
    std_tpot_ms: 0,
    p99_tpot_ms: 7,
    mean_itl_ms: 9,
    median_itl_ms: 9,
    std_itl_ms: 0,
    p95_itl_ms: 9,
    p99_itl_ms: 9,
    concurrency: 1.4,
    accept_length: null,
    input_lens: [10, 20],
    output_lens: [3, 2],
    ttfts: [0.1, 0.05],
    itls: [[0.02, 0.03], [0.04]],
    generated_texts: ['', ''],
    errors: ['', ''],
  };

  it('recomputes TTFT and ITL from the arrays, takes TPOT and E2E as reported (no latencies)', () => {
    const text = JSON.stringify(line) + '\n';
    expect(detectResultFormat(text)).toBe('sglang');
    const r = importSglangText(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.value.runs[0]!.summary;
    expect(s.source).toBe('sglang');
    expect(s.vllm.mean_ttft_ms).toBeCloseTo(75, 9); // recomputed, not the reported 1
    expect(s.vllm.mean_itl_ms).toBeCloseTo(30, 9);
    expect(s.vllm.mean_e2el_ms).toBe(150); // e2e_latency → e2el, as reported
    expect(s.vllm.p99_e2el_ms).toBe(199);
    expect(s.vllm.mean_tpot_ms).toBe(7);
    expect(s.stats.e2el?.mean).toBe(150);
    expect(s.vllm.max_concurrent_requests).toBeNull();
    expect(s.importInfo?.reported).toEqual(expect.arrayContaining(['tpot', 'e2el']));
    expect(s.importInfo?.metadata).toMatchObject({ concurrency: 1.4, dataset_name: 'random' });
  });
});
