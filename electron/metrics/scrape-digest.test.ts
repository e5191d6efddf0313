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
