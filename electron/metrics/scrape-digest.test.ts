/**
 * Scrape digests from real payloads (test-corpus/metrics): JSON-safe for every server,
 * rates and window quantiles between two scrapes (a counter reset included), and text that says
 * why a concept is missing instead of printing a bare dash.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from '../testing/corpus.ts';
import { describe, expect, it } from 'vitest';
import { parsePrometheus } from '../../shared/metrics/prom-parse.ts';
import { detectProfile } from '../../shared/metrics/profiles.ts';
import { formatScrapeDigest } from './scrape-digest-text.ts';
import { ScrapeDigestBuilder } from './scrape-digest.ts';
import type { ScrapeResult } from './scraper.ts';

const CORPUS = path.join(CORPUS_DIR, 'metrics') + path.sep;
if (!existsSync(CORPUS)) throw new Error(`metrics corpus missing at ${CORPUS}`);
const FILES = readdirSync(CORPUS).filter((f) => f.endsWith('.prom'));

function scrape(body: string, monoMs: number): ScrapeResult {
  const parsed = parsePrometheus(body);
  return {
    url: 'http://h/metrics',
    parsed,
    profile: detectProfile(parsed),
    monoMs,
    wallMs: Date.UTC(2025, 0, 1) + monoMs,
    durationMs: 1.234,
    status: 200,
    contentType: 'text/plain',
    bytes: body.length,
  };
}

const vllm = (gen: number, ttft: [number, number, number], running = 1): string =>
  [
    '# TYPE vllm:num_requests_running gauge',
    `vllm:num_requests_running{engine="0",model_name="m"} ${running}`,
    '# TYPE vllm:generation_tokens_total counter',
    `vllm:generation_tokens_total{engine="0",model_name="m"} ${gen}`,
    '# TYPE vllm:time_to_first_token_seconds histogram',
    `vllm:time_to_first_token_seconds_bucket{engine="0",le="0.1",model_name="m"} ${ttft[0]}`,
    `vllm:time_to_first_token_seconds_bucket{engine="0",le="1.0",model_name="m"} ${ttft[1]}`,
    `vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="m"} ${ttft[2]}`,
    `vllm:time_to_first_token_seconds_count{engine="0",model_name="m"} ${ttft[2]}`,
    `vllm:time_to_first_token_seconds_sum{engine="0",model_name="m"} ${ttft[2] * 0.2}`,
    '',
  ].join('\n');

describe('ScrapeDigestBuilder', () => {
  it.each(FILES)('%s: a JSON-safe digest (no NaN, no undefined) and readable text', (f) => {
    const body = readFileSync(CORPUS + f, 'utf8');
    const b = new ScrapeDigestBuilder();
    b.next(scrape(body, 0));
    const r = b.next(scrape(body, 1000));
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    expect(r.families).toBeGreaterThan(0);
    expect(r.rates?.intervalSec).toBe(1);
    const text = formatScrapeDigest(r);
    expect(text).toContain(r.profile.label);
    expect(text).not.toMatch(/NaN|undefined|Infinity/);
  });

  it('rates, window quantiles and a counter reset between scrapes', () => {
    const b = new ScrapeDigestBuilder();
    const first = b.next(scrape(vllm(100, [1, 3, 4]), 0));
    expect(first.rates).toBeNull();
    expect(first.concepts.ttftHistogram).toMatchObject({ count: 4, p50: 0.55 });
    const second = b.next(scrape(vllm(300, [1, 7, 8]), 2000));
    expect(second.rates?.generationTokensPerSec).toBe(100);
    // Only the 4 new observations, all in (0.1, 1]: p50 interpolates to the middle of that bucket.
    expect(second.rates?.ttft).toMatchObject({ count: 4, p50: 0.55, reset: false });
    const restarted = b.next(scrape(vllm(50, [0, 1, 1], 0), 3000));
    expect(restarted.rates?.generationTokensPerSec).toBe(50);
    expect(restarted.rates?.ttft).toMatchObject({ count: 1, reset: true });
    expect(formatScrapeDigest(restarted)).toContain('(server restarted)');
  });

  it('--model keeps only that model', () => {
    const b = new ScrapeDigestBuilder({ model: 'other' });
    expect(b.next(scrape(vllm(100, [1, 3, 4]), 0)).concepts.generationTokensTotal).toBeNull();
  });

  it('text says why a concept is missing (TGI has no TTFT) and lists parse errors by line', () => {
    const tgi = readFileSync(CORPUS + 'tgi.prom', 'utf8') + 'bad line {\n';
    const text = formatScrapeDigest(new ScrapeDigestBuilder().next(scrape(tgi, 0)));
    expect(text).toMatch(/TTFT\s+— not exposed \(TGI exposes no TTFT histogram\.\)/);
    expect(text).toMatch(/line \d+: .*bad line \{/);
    const unknown = formatScrapeDigest(new ScrapeDigestBuilder().next(scrape('up 1\n', 0)));
    expect(unknown).toContain('No known inference-server metrics');
  });
});

describe('speculative decoding in the digest', () => {
  const fixture = (f: string) =>
    readFileSync(path.join(import.meta.dirname, '../../shared/metrics/fixtures', f), 'utf8');

  it("vLLM: since the server's start, then over the last interval; text and JSON", () => {
    const b = new ScrapeDigestBuilder();
    const first = b.next(scrape(fixture('vllm-spec-decode-a.prom'), 0));
    // Since start: 1,100 drafts, 3,300 draft tokens, 1,650 accepted.
    expect(first.specDecode?.sinceStart).toMatchObject({
      drafts: 1100,
      acceptanceRate: 0.5,
      meanAcceptanceLength: 2.5,
    });
    expect(first.specDecode?.window).toBeNull();
    const second = b.next(scrape(fixture('vllm-spec-decode-b.prom'), 1000));
    expect(second.specDecode?.window).toMatchObject({ drafts: 440, draftTokens: 1320, acceptedTokens: 660 });
    const text = formatScrapeDigest(second);
    expect(text).toMatch(
      /spec decoding\s+rate 50\.0 % {2}mean length 2\.50 {2}by position 70\.0 \/ 50\.0 \/ 30\.0 % {2}\(1,540 drafts\)/,
    );
    expect(text).toMatch(/last 1\.00 s\s+rate 50\.0 % {2}mean length 2\.50/);
    expect(JSON.parse(JSON.stringify(second)).specDecode.window.perPosition).toHaveLength(3);
  });

  it("SGLang's gauges; a server without says not exposed (JSON: null, never zeros)", () => {
    const g = new ScrapeDigestBuilder().next(scrape(fixture('sglang-spec-decode.prom'), 0));
    expect(g.specDecode?.sinceStart).toMatchObject({
      source: 'gauges',
      meanAcceptanceLength: 2.75,
      acceptanceRate: 0.4375,
    });
    expect(formatScrapeDigest(g)).toContain("(SGLang's gauges)");
    const none = new ScrapeDigestBuilder().next(scrape(readFileSync(CORPUS + 'vllm-v1.prom', 'utf8'), 0));
    expect(none.specDecode).toBeNull();
    expect(formatScrapeDigest(none)).toMatch(/spec decoding\s+— not exposed by this server/);
  });
});
