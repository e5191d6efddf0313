/**
 * Every event as a row: arrival, gap, tokens, flags, text and the raw frame. Virtualised (only
 * the rows in view are in the DOM) with fixed row heights, so 100k events scroll smoothly; a
 * search box filters by text, raw data or flag name. Click a row to see its full raw frame.
 */
import type { FrameSource } from './RawFrameDetail.tsx';
import { useMemo, useState } from 'react';
import { showText } from '../../shared/format.ts';
import { flagNames, tokenLabel } from './timeline/event-kind.ts';
import { RawFrameDetail } from './RawFrameDetail.tsx';

interface Props {
  source: FrameSource | null;
  /** Rows to show (the summary store's count; updated a few times a second while streaming). */
  count: number;
  /** Identity of the request, so selection and scroll reset when it changes. */
  requestId: string | null;
  viewportHeight?: number;
}

/** @internal exported for its tests */
export const ROW_H = 24;
const OVERSCAN = 8;

/** Row indices matching `query` (case-insensitive) in text, raw frame or flag names; null = all rows. @internal exported for its tests */
export function filterRows(src: FrameSource, count: number, query: string): Int32Array | null {
  const q = query.trim().toLowerCase();
  if (!q) return null;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    if (
      (src.text[i] ?? '').toLowerCase().includes(q) ||
      (src.raw?.[i] ?? '').toLowerCase().includes(q) ||
      flagNames(src.flags[i]!).some((f) => f === q)
    )
      out.push(i);
  }
  return Int32Array.from(out);
}

export function RawFrames({ source, count, requestId, viewportHeight = 336 }: Props) {
  const [query, setQuery] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [selected, setSelected] = useState<{ id: string | null; index: number } | null>(null);
  const n = source ? Math.min(count, source.n) : 0;
  const rows = useMemo(() => (source ? filterRows(source, n, query) : null), [source, n, query]);
  const total = rows ? rows.length : n;
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(total, Math.ceil((scrollTop + viewportHeight) / ROW_H) + OVERSCAN);
  const sel = selected && selected.id === requestId && selected.index < n ? selected.index : -1;

  const items = [];
  if (source) {
    for (let k = first; k < last; k++) {
      const i = rows ? rows[k]! : k;
      const t = source.t[i]!;
      const f = source.flags[i]!;
      const gap = i > 0 ? t - source.t[i - 1]! : null;
      const raw = source.raw?.[i] ?? '';
      items.push(
        <div
          key={i}
          role="row"
          className={`rf-row${i === sel ? ' selected' : ''}`}
          data-testid="raw-frames-row"
          data-index={i}
          style={{ top: k * ROW_H, height: ROW_H }}
          onClick={() => setSelected({ id: requestId, index: i })}
        >
          <span role="cell" className="c-idx">
            {i}
          </span>
          <span role="cell" className="c-num">
            {t.toFixed(2)}
          </span>
          <span role="cell" className="c-num">
            {gap === null ? '—' : gap.toFixed(2)}
          </span>
          <span role="cell" className="c-num">
            {tokenLabel(source.tokens[i]!, f)}
          </span>
          <span role="cell" className="c-flags">
            {flagNames(f).map((name) => (
              <i key={name} className={`flag flag-${name}`}>
                {name}
              </i>
            ))}
          </span>
          <span role="cell" className="c-text mono">
            {showText(source.text[i] ?? '', 48)}
          </span>
          <span role="cell" className="c-raw mono" title={raw.length > 200 ? `${raw.slice(0, 200)}…` : raw}>
            <span className="muted">{source.size[i]} B</span>{' '}
            {raw.length > 160 ? `${raw.slice(0, 160)}…` : raw}
          </span>
        </div>,
      );
    }
  }

  return (
    <section className="card raw-frames" aria-label="Raw frames">
      <header className="card-head">
        <h3>Raw frames</h3>
        <span className="muted">{rows ? `${rows.length} of ${n} events` : `${n} events`}</span>
        <input
          type="search"
          className="rf-search"
          placeholder="Filter: text, raw data or flag (usage, coalesced…)"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setScrollTop(0);
          }}
          aria-label="Filter raw frames"
          data-testid="raw-frames-search"
        />
      </header>
      <div className="rf-table" role="table" aria-rowcount={total}>
        <div className="rf-row rf-head" role="row">
          <span role="columnheader" className="c-idx">
            #
          </span>
          <span role="columnheader" className="c-num" title="Arrival, ms since request start">
            arrival ms
          </span>
          <span role="columnheader" className="c-num" title="Gap to the previous event, ms">
            gap ms
          </span>
          <span role="columnheader" className="c-num" title="Generated tokens; ~ marks an estimate">
            tokens
          </span>
          <span role="columnheader" className="c-flags">
            flags
          </span>
          <span role="columnheader" className="c-text">
            text
          </span>
          <span role="columnheader" className="c-raw">
            raw frame
          </span>
        </div>
        <div
          className="rf-viewport"
          style={{ height: viewportHeight }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          data-testid="raw-frames-viewport"
        >
          <div className="rf-spacer" style={{ height: total * ROW_H }}>
            {items}
          </div>
          {total === 0 && (
            <p className="empty">{n === 0 ? 'No events yet.' : 'No event matches the filter.'}</p>
          )}
        </div>
      </div>
      {source && sel >= 0 && <RawFrameDetail source={source} index={sel} onClose={() => setSelected(null)} />}
    </section>
  );
}
