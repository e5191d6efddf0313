/** Speculative decoding in the run summary's text: shown where the server has it, said where not. */
import { describe, expect, it } from 'vitest';
import { specDecodeRows, SPEC_NOT_EXPOSED } from './spec-decode-text.ts';
import { summaryText } from './text.ts';
import type { RunSummary } from './schema.ts';
import { computeRunSummary } from './summary.ts';
import type { RequestOutcome } from './outcome.ts';

const outcome: RequestOutcome = {
  ok: true,
  startMs: 0,
  queueMs: 0,
  firstEventMs: null,
  ttftMs: 10,
  e2eMs: 100,
  tpotMs: 1,
  itlChunkMs: [],
  itlTokenMs: [],
  outputTokens: 10,
  inputTokens: 10,
  tokenSource: 'usage-total',
  inputTokensSource: 'usage',
  errorKind: null,
  errorCode: null,
};

describe('specDecodeRows', () => {
  it('counters: rate, mean length, per position and the counts', () => {
    const rows = specDecodeRows({
      source: 'counters',
      drafts: 440,
      draftTokens: 1320,
      acceptedTokens: 660,
      acceptanceRate: 0.5,
      meanAcceptanceLength: 2.5,
      perPosition: [0.7, 0.5, 0.3],
      scrapes: 6,
    });
    expect(Object.fromEntries(rows)).toEqual({
      'Spec decode source:': 'counters over 6 scrapes',
      'Acceptance rate (%):': '50.0',
      'Mean acceptance length:': '2.50',
      'Accepted by position (%):': '70.0 / 50.0 / 30.0',
      'Drafts / draft / accepted tokens:': '440 / 1320 / 660',
    });
  });

  it('gauges (SGLang): no counts, no positions; nothing exposed says so', () => {
    const rows = specDecodeRows({
      source: 'gauges',
      drafts: null,
      draftTokens: null,
      acceptedTokens: null,
      acceptanceRate: 0.4375,
      meanAcceptanceLength: 2.75,
      perPosition: null,
      scrapes: 3,
    });
    expect(rows.map((r) => r[0])).toEqual([
      'Spec decode source:',
      'Acceptance rate (%):',
      'Mean acceptance length:',
    ]);
    expect(specDecodeRows(null)).toEqual([['Speculative decoding:', SPEC_NOT_EXPOSED]]);
  });

  it("the run summary's text shows the lines under the server's section", () => {
    const s = {
      ...computeRunSummary({
        outcomes: [outcome],
        durationS: 1,
        config: { maxConcurrency: 1, requestRate: 'inf', burstiness: 1, numPrompts: 1 },
      }),
      server: {
        source: 'scrape',
        url: 'http://x/metrics',
        selector: null,
        profile: 'vllm-v1',
        profileName: 'vLLM (V1 engine)',
        model: null,
        scrapes: 3,
        failures: 0,
        lastError: null,
        window: { fromMs: 0, toMs: 2000 },
        peak: { running: 1, waiting: 0, kvCacheUsage: 0.1 },
        delta: { generationTokens: 10, promptTokens: 10, preemptions: 0 },
        ttft: null,
        queueTime: null,
        e2e: null,
        itl: null,
        series: [],
        specDecode: {
          source: 'counters',
          drafts: 4,
          draftTokens: 12,
          acceptedTokens: 6,
          acceptanceRate: 0.5,
          meanAcceptanceLength: 2.5,
          perPosition: [0.75, 0.5, 0.25],
          scrapes: 3,
        },
      },
    } as unknown as RunSummary;
    const text = summaryText(s);
    expect(text).toMatch(/Acceptance rate \(%\):\s+50\.0/);
    expect(text).toMatch(/Mean acceptance length:\s+2\.50/);
    expect(text).toMatch(/Accepted by position \(%\):\s+75\.0 \/ 50\.0 \/ 25\.0/);
    expect(summaryText({ ...s, server: { ...s.server!, specDecode: null } })).not.toContain('Acceptance');
  });
});
