// @vitest-environment happy-dom
/** The run view's prefix-cache table: measured and expected rows, nothing when neither exists. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { prefixCacheOf } from '../../../shared/runs/summary/prefix-cache.ts';
import type { RequestOutcome } from '../../../shared/runs/summary/outcome.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { PrefixCacheTable } from './PrefixCacheTable.tsx';
import { serverSide } from '../../testing/server-fixture.ts';

afterEach(cleanup);

const s = runDetail(5).summary;
const out = (ttftMs: number, inputTokens: number, cachedTokens?: number): RequestOutcome => ({
  ok: true,
  startMs: 0,
  queueMs: 0,
  firstEventMs: null,
  ttftMs,
  e2eMs: ttftMs + 100,
  tpotMs: 0,
  itlChunkMs: [],
  itlTokenMs: [],
  outputTokens: 1,
  inputTokens,
  ...(cachedTokens !== undefined ? { cachedTokens } : {}),
  tokenSource: 'usage-total',
  inputTokensSource: 'usage',
  errorKind: null,
  errorCode: null,
});

describe('PrefixCacheTable', () => {
  it('shows nothing when the server reported no cached tokens and none were expected', () => {
    expect(prefixCacheOf([out(50, 300), out(40, 300)])).toBeNull();
    const { container } = render(<PrefixCacheTable s={s} />);
    expect(container.textContent).toBe('');
  });

  it('counts an omitted count as 0 once the server gave one (vLLM omits 0), and sets TTFT hit against miss', () => {
    const c = prefixCacheOf([out(90, 300), out(40, 300, 256), out(42, 300, 256), out(38, 300, 256)], {
      hitRequests: 3,
      cachedTokens: 768,
      ratio: 768 / 1200,
    })!;
    expect(c.reported).toBe(4);
    expect(c.hitRequests).toBe(3);
    expect(c.cachedTokens).toBe(768);
    expect(c.ratio).toBeCloseTo(0.64, 12);
    expect(c.ttftMiss!.median).toBe(90);
    expect(c.ttftHit!.median).toBe(40);
    render(<PrefixCacheTable s={{ ...s, prefixCache: c }} />);
    const measured = screen.getByTestId('sum-prefix-measured').textContent!;
    expect(measured).toContain('768');
    expect(measured).toContain('64.0 % of 1,200');
    expect(measured).toContain('90.00');
    expect(screen.getByTestId('sum-prefix-expected').textContent).toContain('64.0 %');
  });

  it("puts the server's own hit rate beside the requests' counts: counters over the run, or a gauge said to be one", () => {
    const c = prefixCacheOf([out(90, 300), out(40, 300, 256)])!;
    const server = serverSide;
    const base = { ...s, prefixCache: c };
    const counters = { hitTokens: 256, queryTokens: 600, hitRate: 256 / 600, source: 'counters' as const };
    render(<PrefixCacheTable s={{ ...base, server: { ...server, prefixCache: counters } }} />);
    const row = screen.getByTestId('sum-prefix-server').textContent!;
    expect(row).toContain('42.7 % of 600');
    expect(row).toContain('its counters over the run');
    cleanup();
    const gauge = { hitTokens: null, queryTokens: null, hitRate: 0.5, source: 'gauge' as const };
    render(<PrefixCacheTable s={{ ...base, server: { ...server, prefixCache: gauge } }} />);
    expect(screen.getByTestId('sum-prefix-server').textContent).toContain('not over the run alone');
    cleanup();
    render(<PrefixCacheTable s={base} />);
    expect(screen.queryByTestId('sum-prefix-server')).toBeNull();
  });
});
