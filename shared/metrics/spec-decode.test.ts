/**
 * Speculative decoding read from /metrics: the fixtures written from vLLM's and SGLang's metric
 * definitions (fixtures/README.md), the corpus payloads of servers without it, and windows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../../electron/testing/corpus.ts';
import { parsePrometheus } from './prom-parse.ts';
import { readSpecDecode, specDecodeWindow, type SpecDecodeReading } from './spec-decode.ts';

const fixture = (f: string) =>
  parsePrometheus(readFileSync(path.join(import.meta.dirname, 'fixtures', f), 'utf8'));
const corpus = (f: string) => parsePrometheus(readFileSync(path.join(CORPUS_DIR, 'metrics', f), 'utf8'));

describe('readSpecDecode', () => {
  it("sums vLLM's counters over engines, per position by the position label", () => {
    const r = readSpecDecode(fixture('vllm-spec-decode-b.prom'));
    expect(r).toEqual({
      counters: { drafts: 1540, draftTokens: 4620, accepted: 2310, perPosition: [1078, 770, 462] },
      gauges: null,
    });
  });

  it('filters on the model label', () => {
    const f = fixture('vllm-spec-decode-b.prom');
    expect(readSpecDecode(f, { model_name: 'other' })).toBeNull();
    expect(readSpecDecode(f, { model_name: 'meta-llama/Llama-3.1-8B-Instruct' })?.counters?.drafts).toBe(
      1540,
    );
  });

  it("reads SGLang's gauges", () => {
    expect(readSpecDecode(fixture('sglang-spec-decode.prom'))).toEqual({
      counters: null,
      gauges: { acceptLength: 2.75, acceptRate: 0.4375 },
    });
  });

  it('servers without speculative decoding read null, never zeros', () => {
    expect(readSpecDecode(corpus('vllm-v1.prom'))).toBeNull();
    expect(readSpecDecode(corpus('tgi.prom'))).toBeNull();
    // SGLang registers the gauges on every server and writes 0 while speculative decoding is off.
    expect(readSpecDecode(corpus('sglang-current.prom'))).toBeNull();
  });

  it("reads llama.cpp's three counters (no per-position family)", () => {
    expect(readSpecDecode(corpus('llamacpp.prom'))).toEqual({
      counters: { drafts: 0, draftTokens: 0, accepted: 0, perPosition: null },
      gauges: null,
    });
  });
});

describe('specDecodeWindow', () => {
  const a = readSpecDecode(fixture('vllm-spec-decode-a.prom'));
  const b = readSpecDecode(fixture('vllm-spec-decode-b.prom'));

  it("gives vLLM's rate, mean length (bonus included) and per-position rates over the deltas", () => {
    const w = specDecodeWindow([
      { t: 0, spec: a },
      { t: 1000, spec: b },
    ]);
    expect(w).not.toBeNull();
    expect(w!.source).toBe('counters');
    expect([w!.drafts, w!.draftTokens, w!.acceptedTokens]).toEqual([440, 1320, 660]);
    expect(w!.acceptanceRate).toBeCloseTo(0.5, 12);
    expect(w!.meanAcceptanceLength).toBeCloseTo(2.5, 12);
    expect(w!.perPosition!.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([0.7, 0.5, 0.3]);
  });

  it('survives a server restart between scrapes (reset-aware increase)', () => {
    const restarted: SpecDecodeReading = {
      counters: { drafts: 40, draftTokens: 120, accepted: 60, perPosition: [28, 20, 12] },
      gauges: null,
    };
    const w = specDecodeWindow([
      { t: 0, spec: a },
      { t: 1, spec: b },
      { t: 2, spec: restarted },
    ]);
    expect(w!.drafts).toBe(480);
    expect(w!.acceptedTokens).toBe(720);
  });

  it('no drafts in the window: counts of 0 and no rates (not a rate of 0)', () => {
    const w = specDecodeWindow([
      { t: 0, spec: a },
      { t: 1, spec: a },
    ]);
    expect(w).toMatchObject({
      drafts: 0,
      acceptanceRate: null,
      meanAcceptanceLength: null,
      perPosition: null,
    });
  });

  it("averages SGLang's gauges over the window's scrapes", () => {
    const g = (acceptLength: number, acceptRate: number): SpecDecodeReading => ({
      counters: null,
      gauges: { acceptLength, acceptRate },
    });
    const w = specDecodeWindow([
      { t: 0, spec: g(2, 0.25) },
      { t: 1, spec: null },
      { t: 2, spec: g(3, 0.5) },
    ]);
    expect(w).toMatchObject({
      source: 'gauges',
      meanAcceptanceLength: 2.5,
      acceptanceRate: 0.375,
      scrapes: 2,
    });
  });

  it('one scrape of counters is no window; nothing exposed is null', () => {
    expect(specDecodeWindow([{ t: 0, spec: b }])).toBeNull();
    expect(
      specDecodeWindow([
        { t: 0, spec: null },
        { t: 1, spec: null },
      ]),
    ).toBeNull();
  });
});
