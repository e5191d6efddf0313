/**
 * Every payload in test-corpus/metrics parses completely: family and sample counts are
 * computed independently from the raw text (distinct `# TYPE` names; non-comment, non-blank
 * lines), and a few values per file are checked by name.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from '../../electron/testing/corpus.ts';
import { describe, expect, it } from 'vitest';
import { parsePrometheus } from './prom-parse.ts';
import type { MetricFamily, ParseResult } from './prom-types.ts';

const CORPUS = path.join(CORPUS_DIR, 'metrics') + path.sep;
if (!existsSync(CORPUS))
  throw new Error(`metrics corpus missing: expected it at ${CORPUS} (test-corpus/ in the repo)`);
const FILES = readdirSync(CORPUS).filter((f) => f.endsWith('.prom') || f.endsWith('.txt'));
const read = (f: string): string => readFileSync(CORPUS + f, 'utf8');
const parse = (f: string): ParseResult => parsePrometheus(read(f));

function fam(r: ParseResult, name: string): MetricFamily {
  const f = r.families.find((x) => x.name === name);
  if (f === undefined) throw new Error(`family ${name} not found`);
  return f;
}
const value = (r: ParseResult, family: string, sample = family): number | undefined =>
  fam(r, family).samples.find((s) => s.name === sample)?.value;

describe('corpus payloads: counts', () => {
  it('has the expected corpus files', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(11);
  });

  it.each(FILES)('%s parses to the family and sample counts its text holds', (f) => {
    const text = read(f);
    const lines = text.split('\n');
    const sampleLines = lines.filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#')).length;
    const typeNames = new Set(lines.filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(/\s+/)[2]));
    const r = parsePrometheus(text);
    expect(r.errors).toEqual([]);
    expect(r.families.length).toBe(typeNames.size);
    expect(r.families.reduce((n, x) => n + x.samples.length, 0)).toBe(sampleLines);
    expect(r.format).toBe(f.endsWith('.txt') ? 'openmetrics' : 'text');
    for (const x of r.families) expect(typeNames.has(x.name)).toBe(true);
  });
});

describe('corpus payloads: values', () => {
  it('vllm-v1.prom: labels, Go-style exponents, _created gauge families, histogram grouping', () => {
    const r = parse('vllm-v1.prom');
    const running = fam(r, 'vllm:num_requests_running').samples[0];
    expect(running?.labels).toEqual({ engine: '0', model_name: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(running?.value).toBe(8);
    expect(value(r, 'process_virtual_memory_bytes')).toBe(12571459584);
    expect(value(r, 'process_max_fds')).toBe(1048576);
    expect(fam(r, 'vllm:prompt_tokens_created').type).toBe('gauge');
    expect(fam(r, 'vllm:prompt_tokens_total').type).toBe('counter');
    expect(fam(r, 'vllm:iteration_tokens_total').type).toBe('histogram');
    const ttft = fam(r, 'vllm:time_to_first_token_seconds').histograms?.[0];
    expect(ttft?.labels).toEqual({ engine: '0', model_name: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(ttft?.count).toBe(140);
    expect(ttft?.sum).toBeCloseTo(25.554424119784183, 12);
    expect(ttft?.buckets.length).toBe(23);
    expect(ttft?.buckets[0]).toEqual({ le: 0.001, count: 0 });
    expect(ttft?.buckets[4]).toEqual({ le: 0.04, count: 12 });
    expect(ttft?.buckets.at(-1)).toEqual({ le: Infinity, count: 140 });
    // help with a trailing space is kept as written
    expect(fam(r, 'http_request_size_bytes').help.endsWith('calculated. ')).toBe(true);
    expect(fam(r, 'http_request_size_bytes').summaries?.[0]).toMatchObject({
      count: 140,
      sum: 612083,
      quantiles: [],
    });
  });

  it('vllm-v0.prom: multiprocess order (_sum before buckets), V0 names', () => {
    const r = parse('vllm-v0.prom');
    expect(value(r, 'vllm:prompt_tokens_total')).toBe(5453083);
    expect(value(r, 'vllm:gpu_prefix_cache_hit_rate')).toBe(-1);
    const h = fam(r, 'vllm:time_to_first_token_seconds').histograms?.[0];
    expect(h?.sum).toBe(5686.670262336731);
    expect(h?.count).toBe(8499);
    expect(h?.buckets.map((b) => b.le)).toEqual([
      0.001,
      0.005,
      0.01,
      0.02,
      0.04,
      0.06,
      0.08,
      0.1,
      0.25,
      0.5,
      0.75,
      1,
      2.5,
      5,
      7.5,
      10,
      Infinity,
    ]);
    const success = fam(r, 'vllm:request_success_total').samples.map((s) => [
      s.labels.finished_reason,
      s.value,
    ]);
    expect(success).toEqual([
      ['stop', 6193],
      ['abort', 28],
      ['length', 5],
    ]);
  });

  it('sglang.prom: float-artefact le values compare numerically', () => {
    const r = parse('sglang.prom');
    const h = fam(r, 'sglang:func_latency_seconds').histograms?.[0];
    expect(h?.labels).toEqual({ name: 'generate_request' });
    expect(h?.buckets[1]).toEqual({ le: 0.07500000000000001, count: 14006 });
    expect(fam(r, 'sglang:time_per_output_token_seconds').histograms?.[0]?.count).toBe(7400757);
    expect(value(r, 'sglang:num_queue_reqs')).toBe(2826);
  });

  it('sglang-current.prom: the pid label on num_retracted_reqs', () => {
    const r = parse('sglang-current.prom');
    expect(fam(r, 'sglang:num_retracted_reqs').samples[0]?.labels).toEqual({
      model_name: 'Qwen/Qwen2.5-7B-Instruct',
      pid: '19271',
    });
    expect(fam(r, 'sglang:inter_token_latency_seconds').histograms?.[0]?.count).toBe(88387);
  });

  it('tgi.prom: blank lines, no HELP for some, 1024-bucket histogram, summary from a bucketless histogram', () => {
    const r = parse('tgi.prom');
    expect(fam(r, 'tgi_batch_max_total_tokens')).toMatchObject({ help: '', type: 'gauge' });
    expect(value(r, 'tgi_batch_max_total_tokens')).toBe(126768);
    const next = fam(r, 'tgi_batch_next_size').histograms?.[0];
    expect(next?.buckets.length).toBe(1025);
    expect(next?.count).toBe(195);
    const dur = fam(r, 'tgi_request_duration').histograms?.[0];
    expect(dur?.buckets[0]?.le).toBe(0.00015000000000000001);
    expect(dur?.buckets.length).toBe(36);
    const fwd = fam(r, 'tgi_batch_forward_duration').histograms ?? [];
    expect(fwd.map((h) => [h.labels.method, h.count])).toEqual([
      ['prefill', 194],
      ['decode', 2906],
    ]);
    const sk = fam(r, 'tgi_request_skipped_tokens').summaries?.[0];
    expect(sk?.quantiles.map((q) => q.quantile)).toEqual([0, 0.5, 0.9, 0.95, 0.99, 0.999, 1]);
    expect(sk?.count).toBe(3100);
  });

  it('llamacpp*.prom: %g values, types that changed between builds', () => {
    expect(value(parse('llamacpp.prom'), 'llamacpp:prompt_tokens_total')).toBe(1481210);
    expect(value(parse('llamacpp.prom'), 'llamacpp:prompt_tokens_cached_total')).toBe(3907550);
    expect(fam(parse('llamacpp.prom'), 'llamacpp:n_busy_slots_per_decode').type).toBe('gauge');
    expect(fam(parse('llamacpp-2025.prom'), 'llamacpp:n_busy_slots_per_decode').type).toBe('counter');
    expect(value(parse('llamacpp-legacy.prom'), 'llamacpp:kv_cache_usage_ratio')).toBe(0.0732422);
  });

  it('triton.prom: Nan, empty braces, _count/_sum before buckets, quantile label last', () => {
    const r = parse('triton.prom');
    const q = fam(r, 'nv_inference_queue_summary_us').summaries?.[0];
    expect(q?.labels).toEqual({ model: 'tensorrt_llm', version: '1' });
    expect(q?.quantiles.at(-1)?.quantile).toBe(0.999);
    expect(q?.quantiles.at(-1)?.value).toBeNaN();
    expect(fam(r, 'nv_pinned_memory_pool_total_bytes').samples[0]).toEqual({
      name: 'nv_pinned_memory_pool_total_bytes',
      labels: {},
      value: 268435456,
    });
    const h = fam(r, 'nv_inference_first_response_histogram_ms').histograms?.[0];
    expect(h?.buckets).toEqual([
      { le: 100, count: 12 },
      { le: 500, count: 131 },
      { le: 2000, count: 158 },
      { le: 5000, count: 161 },
      { le: Infinity, count: 161 },
    ]);
    expect(h?.sum).toBe(47211.53);
  });

  it('openmetrics-example.txt: mangled names rejoin their family, escapes, exemplars, info, NaN', () => {
    const r = parse('openmetrics-example.txt');
    expect(r.families.map((f) => [f.name, f.type])).toEqual([
      ['vllm:generation_tokens', 'counter'],
      ['vllm:time_to_first_token_seconds', 'histogram'],
      ['vllm:kv_cache_usage_perc', 'gauge'],
      ['demo_label_escaping', 'gauge'],
      ['vllm:build', 'info'],
    ]);
    expect(fam(r, 'vllm:generation_tokens').samples.map((s) => s.name)).toEqual([
      'vllm:generation_tokens_total',
      'vllm:generation_tokens_created',
    ]);
    const demo = fam(r, 'demo_label_escaping');
    expect(demo.help).toBe('Label values must escape backslash, double-quote and newline: \\ " \n end');
    expect(demo.samples[0]?.labels).toEqual({ note: 'say "hi"\nnext line', path: 'C:\\models\\llama' });
    expect(demo.samples[0]?.value).toBeNaN();
    const ttft = fam(r, 'vllm:time_to_first_token_seconds');
    expect(ttft.samples[1]?.exemplar).toEqual({
      labels: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' },
      value: 0.031,
      timestampMs: 1795318600.0619488 * 1000,
    });
    expect(ttft.histograms?.[0]).toMatchObject({
      count: 5,
      sum: 1.2469999999999999,
      createdSec: 1.7953186000619087e9,
    });
    expect(value(r, 'vllm:build', 'vllm:build_info')).toBe(1);
  });

  it('openmetrics-example-plain-names.txt: UNIT, +Inf gauge, counter _created', () => {
    const r = parse('openmetrics-example-plain-names.txt');
    expect(fam(r, 'llm_request_tokens')).toMatchObject({ type: 'counter', unit: 'tokens' });
    expect(fam(r, 'llm_request_ttft_seconds').unit).toBe('seconds');
    expect(value(r, 'llm_kv_cache_usage_ratio')).toBe(Infinity);
    expect(fam(r, 'llm_request_tokens').samples.map((s) => [s.name, s.labels.kind])).toEqual([
      ['llm_request_tokens_total', 'prompt'],
      ['llm_request_tokens_created', 'prompt'],
      ['llm_request_tokens_total', 'generation'],
      ['llm_request_tokens_created', 'generation'],
    ]);
  });
});
