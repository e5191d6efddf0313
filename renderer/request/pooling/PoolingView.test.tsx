// @vitest-environment happy-dom
// What the request view shows of an embeddings or rerank request: its phases, sizes, usage and
// the readable result (each vector's dimension, norm and first values; the ranked documents) — and
// nothing of token streams: no timeline, ITL histogram, chunk chart, output, TTFT or ITL, not even
// as zeros. A server's error is classified with its body; the comparison has the same rows.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestSummary } from '../../../shared/api.ts';
import type { DialectId } from '../../../shared/dialects.ts';
import type { PooledAnswer } from '../../../shared/pooled-answer.ts';
import { newRecord, type RequestRecord } from '../../../shared/record.ts';
import { computeRequestStats } from '../../../shared/stats/request-stats.ts';
import { CompareView } from '../CompareView.tsx';
import { digestOf } from '../record-view.ts';
import { EMPTY_SLOT, useRequestStore, type RequestSlot } from '../request-store.ts';
import { RequestView } from '../RequestView.tsx';
import { headText, scoreShare } from './PoolingResult.tsx';
import { poolingSegments } from './PoolingPhases.tsx';

afterEach(() => {
  cleanup();
  useRequestStore.setState({ current: EMPTY_SLOT, compare: EMPTY_SLOT });
});

const PHASES = { connectedMs: 0.5, requestWrittenMs: 0.75, headersMs: 20, firstByteMs: 20, endMs: 21.5 };

const EMBEDDINGS: PooledAnswer = {
  kind: 'embeddings',
  items: [
    { index: 0, dimension: 4096, norm: 1, head: [0.5, -0.25, 0.125, 0, 0.00001, 1, 2, 3] },
    { index: 1, dimension: 4096, norm: 0.99995, head: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8] },
  ],
  omitted: 0,
  similarity: [
    [1, 0.25],
    [0.25, 1],
  ],
  body: '{"object":"list","data":[{"index":0,"embedding":[0.5,-0.25',
  bodyBytes: 163_840,
  bodyCut: true,
};

const RERANK: PooledAnswer = {
  kind: 'rerank',
  results: [
    { index: 2, score: 0.9125, text: 'The Louvre is in Paris.', textCut: false },
    { index: 0, score: 0.4, text: 'Paris is the capital of France.', textCut: false },
  ],
  omitted: 0,
  body: '{"results":[]}',
  bodyBytes: 14,
  bodyCut: false,
};

function record(dialect: DialectId, patch: Partial<RequestRecord> = {}): RequestRecord {
  return newRecord({
    id: `r-${dialect}`,
    url: 'http://127.0.0.1:8000/v1/x',
    dialect,
    model: 'm',
    startedAtWall: 0,
    phases: PHASES,
    status: 200,
    bytes: 163_840,
    requestBytes: 321,
    usage: { promptTokens: 42, completionTokens: 0, totalTokens: 42 },
    batch: dialect === 'rerank' ? { inputs: 3, results: 2 } : { inputs: 2, results: 2, dimension: 4096 },
    terminated: true,
    answer: dialect === 'rerank' ? RERANK : EMBEDDINGS,
    ...patch,
  });
}

function slot(rec: RequestRecord): RequestSlot {
  const summary: RequestSummary = {
    id: rec.id,
    targetId: 't',
    targetName: 'sim',
    model: 'm',
    dialect: rec.dialect,
    startedAtWall: 0,
    state: rec.error ? 'error' : 'done',
    ttftMs: null,
    e2eMs: rec.phases.endMs,
    outputTokens: 0,
    errorKind: rec.error?.kind ?? null,
    promptPreview: '',
  };
  return {
    id: rec.id,
    state: rec.error ? 'error' : 'done',
    stats: computeRequestStats(rec),
    digest: digestOf(rec),
    summary,
    missing: false,
  };
}

/** Every mark of a token stream the view must not show. */
const STREAM_WORDS =
  /TTFT|ITL|TPOT|Token timeline|Tokens per chunk|Output tokens|Chunks|Raw frames|streaming/i;

function viewText(): string {
  return screen.getByTestId('pooling-view').textContent ?? '';
}

describe('the request view of an embeddings request', () => {
  it('shows phases, sizes, usage and each vector readable, and nothing of a token stream', () => {
    useRequestStore.setState({ current: slot(record('openai-embeddings')) });
    render(<RequestView />);
    expect(screen.getByTestId('pooling-e2e').textContent).toBe('21.50 ms');
    expect(screen.getByTestId('pooling-prompt-tokens').textContent).toBe('42');
    expect(screen.getByTestId('pooling-bytes').textContent).toBe('160.0 KiB');
    expect(screen.getByTestId('pooling-request-bytes').textContent).toBe('321 B');
    expect(screen.getByTestId('pooling-batch').textContent).toBe('2 → 2');
    const rows = within(screen.getByTestId('embeddings-table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'inputdimensionnormfirst values',
      '040961.0000[0.5000, -0.2500, 0.1250, 0.0000, 1.00e-5, 1.0000, 2.0000, 3.0000, … 4088 more]',
      '140961.0000[0.1000, 0.2000, 0.3000, 0.4000, 0.5000, 0.6000, 0.7000, 0.8000, … 4088 more]',
    ]);
    const sim = within(screen.getByTestId('similarity-matrix')).getAllByRole('row');
    expect(sim.map((r) => r.textContent)).toEqual(['01', '01.00000.2500', '10.25001.0000']);
    // The raw body is behind a toggle, and says it is only the start.
    expect(screen.getByTestId('pooling-raw-toggle').textContent).toBe(
      'Raw response body (160.0 KiB, its start shown)',
    );
    expect(screen.getByTestId('pooling-raw').closest('details')?.open).toBe(false);
    expect(viewText()).not.toMatch(STREAM_WORDS);
    expect(viewText()).not.toMatch(/NaN|undefined/);
    expect(document.querySelector('canvas')).toBeNull();
  });

  it('draws the phases that happened, in order, ending at E2E', () => {
    expect(poolingSegments(PHASES).map((s) => [s.key, s.from, s.to])).toEqual([
      ['connect', 0, 0.5],
      ['write', 0.5, 0.75],
      ['wait', 0.75, 20],
      ['download', 20, 21.5],
    ]);
    expect(poolingSegments({ ...PHASES, firstByteMs: null, endMs: null }).map((s) => s.key)).toEqual([
      'connect',
      'write',
    ]);
    expect(headText([0.5, 1], 2)).toBe('[0.5000, 1.0000]');
  });
});

describe('the request view of a rerank request', () => {
  it('lists the ranked documents with index, score and text, best first', () => {
    useRequestStore.setState({ current: slot(record('rerank')) });
    render(<RequestView />);
    const rows = within(screen.getByTestId('rerank-table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'rankdocumentscoretext',
      '120.9125The Louvre is in Paris.',
      '200.4000Paris is the capital of France.',
    ]);
    expect(screen.getByTestId('pooling-batch').textContent).toBe('3 → 2');
    expect(viewText()).not.toMatch(STREAM_WORDS);
  });

  it("classifies the server's error with its response body, and no 'nothing arrived' note", () => {
    const rec = record('rerank', {
      status: 400,
      answer: undefined,
      usage: null,
      batch: undefined,
      error: {
        kind: 'http',
        code: 'status',
        status: 400,
        message: 'HTTP 400: `documents` must be a non-empty string or array of strings',
        body: '{"error":{"message":"`documents` must be a non-empty string or array of strings","code":400}}',
        atMs: 8,
      },
    });
    useRequestStore.setState({ current: slot(rec) });
    render(<RequestView />);
    expect(screen.getByTestId('error-kind').textContent).toBe('http');
    expect(screen.getByTestId('error-body').textContent).toMatch(/"code": 400/);
    expect(screen.queryByTestId('error-partial')).toBeNull();
    expect(screen.queryByTestId('pooling-result')).toBeNull();
    expect(screen.getByTestId('pooling-prompt-tokens').textContent).toBe('— (no usage)');
  });
});

describe('comparing two embeddings requests', () => {
  it('has their phases, sizes and usage side by side, no lanes and no token rows', () => {
    const b = record('openai-embeddings', { id: 'b', phases: { ...PHASES, firstByteMs: 30, endMs: 31.5 } });
    useRequestStore.setState({ current: slot(record('openai-embeddings')), compare: slot(b) });
    render(<CompareView />);
    const view = screen.getByTestId('compare-view');
    expect(within(view).queryByTestId('compare-canvas')).toBeNull();
    const rows = within(view)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toContain('E2E21.50 ms31.50 ms+10.00 ms (+47 %)');
    expect(rows).toContain('Prompt tokens4242=');
    expect(view.textContent).not.toMatch(/TTFT|ITL|TPOT|Chunks|Token count/);
  });
});

describe('the rerank score bars', () => {
  it('are shares of 0–1 when every score is in it, else of the largest score', () => {
    expect(scoreShare(0.92, [0.99, 0.92])).toBeCloseTo(0.92, 12);
    expect(scoreShare(4, [8, 4, -2])).toBe(0.5);
    expect(scoreShare(-2, [8, 4, -2])).toBe(0);
    expect(scoreShare(Number.NaN, [Number.NaN, 0.5])).toBe(0);
  });
});
