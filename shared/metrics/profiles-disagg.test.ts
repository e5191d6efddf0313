import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractConcepts, type Concepts } from './concepts.ts';
import { histogramQuantile } from './prom-math.ts';
import { parsePrometheus } from './prom-parse.ts';
import { detectProfile, detectProfileId, PROFILES, type ProfileId } from './profiles.ts';

// Payloads written from each project's metric definitions (fixtures/SOURCES.md).
const DIR = path.join(import.meta.dirname, 'fixtures');
const parse = (f: string) => parsePrometheus(readFileSync(path.join(DIR, f), 'utf8'));
const concepts = (f: string): Concepts => {
  const r = parse(f);
  return extractConcepts(r, detectProfile(r));
};

const EXPECTED: Record<string, ProfileId> = {
  'dynamo-frontend.prom': 'dynamo',
  'llm-d-epp.prom': 'llm-d-epp',
  'sglang-pd-decode.prom': 'sglang-pd',
  'sglang-pd-prefill.prom': 'sglang-pd',
  'trtllm-serve.prom': 'trtllm',
};

describe('disaggregated and routed serving: detection', () => {
  it('has every profile fixture; every fixture in the folder parses without an error', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.prom'));
    for (const f of Object.keys(EXPECTED)) expect(files, f).toContain(f);
    for (const f of files) expect(parse(f).errors, f).toEqual([]);
  });

  it.each(Object.entries(EXPECTED))('%s → %s', (file, id) => {
    expect(detectProfileId(parse(file))).toBe(id);
  });

  it('SGLang without a prefill/decode engine_type stays plain SGLang', () => {
    const body = readFileSync(path.join(DIR, 'sglang-pd-decode.prom'), 'utf8').replaceAll(
      'engine_type="decode"',
      'engine_type="unified"',
    );
    const parsed = parsePrometheus(body);
    expect(detectProfileId(parsed)).toBe('sglang');
    // Current SGLang's queue-time histogram (collector.py queue_time_seconds) reads on plain SGLang too.
    const q = extractConcepts(parsed, PROFILES.sglang).queueTimeHistogram;
    expect(q).not.toBeNull();
    expect(q!.count).toBeGreaterThan(0);
  });
});

describe('disaggregated and routed serving: concepts', () => {
  it('SGLang decode server: its queues, the transfer queue, KV-transfer time from decode_transferred', () => {
    const c = concepts('sglang-pd-decode.prom');
    expect(c).toMatchObject({
      requestsRunning: 24,
      requestsWaiting: 2,
      kvCacheUsage: 0.41,
      promptTokensTotal: 240000,
      generationTokensTotal: 30210,
      prefillPreallocQueue: 0,
      prefillInflightQueue: 0,
      decodePreallocQueue: 3,
      decodeTransferQueue: 5,
      kvTransferSecondsTotal: null,
      kvTransfersTotal: null,
    });
    const h = c.kvTransferHistogram;
    expect(h?.count).toBe(120);
    expect(h?.sum).toBeCloseTo(4.2, 12);
    // 40 ≤ 0.001·1.62^7, 70 more ≤ 0.001·1.62^8: the median is 20/70 of the way through that bucket.
    const [lo, hi] = [0.001 * 1.62 ** 7, 0.001 * 1.62 ** 8];
    expect(histogramQuantile(0.5, h?.buckets ?? [])).toBeCloseTo(lo + (20 / 70) * (hi - lo), 12);
    expect(c.queueTimeHistogram?.count).toBe(118);
    expect(c.ttftHistogram?.sum).toBeCloseTo(27.1, 12);
  });

  it('SGLang prefill server: prealloc and inflight queues, the KV send (not the forward stage)', () => {
    const c = concepts('sglang-pd-prefill.prom');
    expect(c).toMatchObject({
      requestsWaiting: 7,
      prefillPreallocQueue: 4,
      prefillInflightQueue: 6,
      decodePreallocQueue: 0,
      decodeTransferQueue: 0,
    });
    expect(c.kvTransferHistogram?.count).toBe(130);
    expect(c.kvTransferHistogram?.sum).toBeCloseTo(3.9, 12);
  });

  it('Dynamo frontend: inflight, queued, tokens, TTFT/ITL/duration; no KV cache or transfer', () => {
    const c = concepts('dynamo-frontend.prom');
    expect(c).toMatchObject({
      requestsRunning: 16,
      requestsWaiting: 4,
      promptTokensTotal: 153600,
      generationTokensTotal: 38400,
      kvCacheUsage: null,
      kvTransferHistogram: null,
      queueTimeHistogram: null,
      decodeTransferQueue: null,
    });
    expect(c.ttftHistogram?.count).toBe(150);
    expect(c.ttftHistogram?.sum).toBeCloseTo(33, 12);
    expect(c.itlHistogram?.count).toBe(38250);
    expect(c.e2eHistogram?.sum).toBeCloseTo(520.5, 12);
  });

  it('trtllm-serve: its Prometheus names (trtllm_ prefix)', () => {
    const c = concepts('trtllm-serve.prom');
    expect(c).toMatchObject({
      requestsRunning: 7,
      requestsWaiting: 2,
      kvCacheUsage: 0.37,
      promptTokensTotal: 204800,
      generationTokensTotal: 25600,
      prefixCacheHitRate: 0.5,
      kvTransferHistogram: null,
    });
    expect(c.ttftHistogram?.sum).toBeCloseTo(24, 12);
    expect(c.itlHistogram?.count).toBe(200);
    expect(c.e2eHistogram?.count).toBe(200);
    expect(c.queueTimeHistogram?.sum).toBeCloseTo(6, 12);
  });

  it('llm-d EPP: running per model, pool averages, gateway duration; no TTFT', () => {
    const c = concepts('llm-d-epp.prom');
    expect(c).toMatchObject({
      requestsRunning: 9,
      requestsWaiting: 1.5,
      kvCacheUsage: 0.275,
      promptTokensTotal: 98304,
      generationTokensTotal: 24576,
      ttftHistogram: null,
      itlHistogram: null,
    });
    expect(c.e2eHistogram?.count).toBe(96);
    expect(c.e2eHistogram?.sum).toBeCloseTo(326.4, 12);
  });

  it('every concept a new profile lacks says why (a note), never a bare zero', () => {
    for (const [file, id] of Object.entries(EXPECTED)) {
      const c = concepts(file);
      for (const k of ['kvCacheUsage', 'ttftHistogram', 'kvTransferHistogram', 'queueTimeHistogram'] as const)
        if (c[k] === null) expect(PROFILES[id].notes[k], `${id} ${k}`).toBeTruthy();
    }
  });
});
