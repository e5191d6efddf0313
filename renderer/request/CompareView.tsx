/**
 * Two requests on one time axis (stacked lanes, same scale) and their numbers side by side,
 * with the difference B − A. Values from computeRequestStats / summarize, as everywhere.
 * Embeddings and rerank (no token stream) get no lanes and their own rows: phases, sizes, usage
 * and batch (pooling/pooling-compare.ts).
 */
import { fmtClock } from '../core/format-date.ts';
import { useMemo } from 'react';
import type { RequestStats } from '../../shared/stats/request-stats.ts';
import { requestItl } from '../../shared/stats/request-itl.ts';
import { SAME_WITHIN } from '../../shared/runs/compare/compare.ts';
import { C } from '../core/charts/theme.ts';
import { setCompare } from './controller.ts';
import { useRequestStore, type RequestSlot } from './request-store.ts';
import { tokenSourceLabel } from './StatsPanel.tsx';
import { Timeline } from './timeline/Timeline.tsx';
import { isNonStreamingDialect } from '../../shared/dialects.ts';
import { POOLING_METRICS } from './pooling/pooling-compare.ts';
import { TimelineLegend } from './timeline/TimelineLegend.tsx';

interface Metric {
  label: string;
  unit: 'ms' | 'tok/s' | '';
  /** Lower is better, higher is better, or neither (colour of the difference). */
  lowerBetter: boolean | null;
  get: (s: RequestStats) => number | null;
}

/** Tokenscope's ITL (shared/stats/request-itl.ts), as the statistics panel and `tokenscope probe`. */
const p = (s: RequestStats, list: 'chunk' | 'token', k: 'median' | 'p99'): number | null =>
  requestItl(s)[list]?.[k] ?? null;

/** @internal exported for its tests */
export const METRICS: Metric[] = [
  { label: 'TTFT', unit: 'ms', lowerBetter: true, get: (s) => s.ttftMs },
  { label: 'First event', unit: 'ms', lowerBetter: true, get: (s) => s.firstEventMs },
  { label: 'TPOT', unit: 'ms', lowerBetter: true, get: (s) => s.tpotMs },
  { label: 'E2E', unit: 'ms', lowerBetter: true, get: (s) => s.e2eMs },
  // Tokenscope's ITL, as the statistics panel shows it: coalesced gaps left out.
  {
    label: 'ITL per chunk p50',
    unit: 'ms',
    lowerBetter: true,
    get: (s) => p(s, 'chunk', 'median'),
  },
  { label: 'ITL per chunk p99', unit: 'ms', lowerBetter: true, get: (s) => p(s, 'chunk', 'p99') },
  {
    label: 'ITL per token p50',
    unit: 'ms',
    lowerBetter: true,
    get: (s) => p(s, 'token', 'median'),
  },
  { label: 'ITL per token p99', unit: 'ms', lowerBetter: true, get: (s) => p(s, 'token', 'p99') },
  { label: 'Max gap', unit: 'ms', lowerBetter: true, get: (s) => s.maxGapMs },
  { label: 'Tokens/s', unit: 'tok/s', lowerBetter: false, get: (s) => s.tokensPerSecond },
  { label: 'Output tokens', unit: '', lowerBetter: null, get: (s) => s.outputTokens },
  { label: 'Chunks', unit: '', lowerBetter: null, get: (s) => s.contentEvents },
  { label: 'Coalesced', unit: '', lowerBetter: true, get: (s) => s.coalescedEvents },
];

function fmt(v: number | null, unit: Metric['unit']): string {
  if (v === null || !Number.isFinite(v)) return '—';
  return unit === '' ? String(Math.round(v * 100) / 100) : `${v.toFixed(unit === 'ms' ? 2 : 1)} ${unit}`;
}

/**
 * A time difference under this (ms) is not coloured: one request's timings move by more than that
 * between identical requests (scheduling, the event loop), so +0.07 ms of TPOT says nothing.
 * @internal exported for its tests
 */
export const SAME_WITHIN_MS = 0.5;

/**
 * B − A in words and its colour. Coloured only when it matters, as the run comparison decides
 * (shared/runs/compare/compare.ts): not within SAME_WITHIN (1 %) of A, and for times not within
 * SAME_WITHIN_MS — a single request has no interval to tell a change from noise.
 * @internal exported for its tests
 */
export function diff(
  a: number | null,
  b: number | null,
  m: Pick<Metric, 'unit' | 'lowerBetter'>,
): { text: string; tone: 'better' | 'worse' | '' } {
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b)) return { text: '', tone: '' };
  const d = b - a;
  if (d === 0) return { text: '=', tone: '' };
  const pct = a !== 0 ? ` (${d > 0 ? '+' : ''}${((d / a) * 100).toFixed(0)} %)` : '';
  const text = `${d > 0 ? '+' : ''}${fmt(d, m.unit)}${pct}`;
  if (m.lowerBetter === null) return { text, tone: '' };
  const small =
    (a !== 0 && Math.abs(d / a) < SAME_WITHIN) || (m.unit === 'ms' && Math.abs(d) < SAME_WITHIN_MS);
  if (small) return { text, tone: '' };
  const better = m.lowerBetter ? d < 0 : d > 0;
  return { text, tone: better ? 'better' : 'worse' };
}

function name(s: RequestSlot): string {
  const sum = s.summary;
  if (!sum) return s.id ?? '—';
  return `${sum.targetName} · ${sum.model} · ${fmtClock(sum.startedAtWall)}`;
}

export function CompareView() {
  const a = useRequestStore((s) => s.current);
  const b = useRequestStore((s) => s.compare);
  const lanes = useMemo(
    () => [
      { requestId: a.id, label: 'A', color: C.content },
      { requestId: b.id, label: 'B', color: C.contentB },
    ],
    [a.id, b.id],
  );
  if (!b.id) return null;
  // A non-streamed answer has no tokens to time: no lanes, and its own rows.
  const pooled = [a, b].some((s) => s.summary && isNonStreamingDialect(s.summary.dialect));
  const rows = pooled
    ? POOLING_METRICS.map((m) => ({
        m,
        va: a.digest ? m.get(a.digest) : null,
        vb: b.digest ? m.get(b.digest) : null,
      }))
    : METRICS.map((m) => ({ m, va: a.stats ? m.get(a.stats) : null, vb: b.stats ? m.get(b.stats) : null }));
  return (
    <section className="card compare" aria-label="Comparison" data-testid="compare-view">
      <header className="card-head">
        <h3>Compare</h3>
        {pooled ? (
          <ul className="legend" aria-label="Requests compared">
            <li style={{ color: C.content }}>A: {name(a)}</li>
            <li style={{ color: C.contentB }}>B: {name(b)}</li>
          </ul>
        ) : (
          <TimelineLegend
            lanes={[
              { label: 'A', color: C.content, name: name(a) },
              { label: 'B', color: C.contentB, name: name(b) },
            ]}
            reasoning={a.stats?.reasoningTokens != null || b.stats?.reasoningTokens != null}
          />
        )}
        <button type="button" className="btn small ghost" onClick={() => void setCompare(null)}>
          Close
        </button>
      </header>
      {!pooled && (
        <Timeline
          lanes={lanes}
          testId="compare-canvas"
          ariaLabel="Timelines of requests A and B on one time axis"
        />
      )}
      <table className="compare-table">
        <thead>
          <tr>
            <th>metric</th>
            <th style={{ color: C.content }}>A</th>
            <th style={{ color: C.contentB }}>B</th>
            <th
              title={`Green better, red worse; grey within ${SAME_WITHIN * 100} % or ${SAME_WITHIN_MS} ms (one request's timing noise)`}
            >
              B − A
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ m, va, vb }) => {
            const d = diff(va, vb, m);
            return (
              <tr key={m.label}>
                <th>{m.label}</th>
                <td>{fmt(va, m.unit)}</td>
                <td>{fmt(vb, m.unit)}</td>
                <td className={d.tone}>{d.text}</td>
              </tr>
            );
          })}
          {!pooled && (
            <tr>
              <th>Token count</th>
              <td>{a.stats ? tokenSourceLabel(a.stats.tokenSource) : '—'}</td>
              <td>{b.stats ? tokenSourceLabel(b.stats.tokenSource) : '—'}</td>
              <td />
            </tr>
          )}
          <tr>
            <th>Finish / error</th>
            <td>
              {a.digest?.error
                ? `${a.digest.error.kind}: ${a.digest.error.code}`
                : (a.digest?.finishReason ?? '—')}
            </td>
            <td>
              {b.digest?.error
                ? `${b.digest.error.kind}: ${b.digest.error.code}`
                : (b.digest?.finishReason ?? '—')}
            </td>
            <td />
          </tr>
        </tbody>
      </table>
      <p className="caption muted" data-testid="compare-colours">
        B − A: green better, red worse; grey within {SAME_WITHIN * 100} % or {SAME_WITHIN_MS} ms, one
        request&apos;s timing noise (the run comparison uses the same 1 %, with intervals).
      </p>
    </section>
  );
}
