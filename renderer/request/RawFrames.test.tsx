// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EV_CONTENT } from '../../shared/request.ts';
import { LiveColumns } from './columns.ts';
import { handMadeRecord } from '../testing/record-fixture.ts';
import { filterRows, RawFrames, ROW_H } from './RawFrames.tsx';

afterEach(cleanup);

function fixtureSource() {
  const rec = handMadeRecord();
  const c = new LiveColumns();
  c.load(rec.events, rec.raw);
  return c;
}

function cells(row: HTMLElement): string[] {
  return Array.from(row.querySelectorAll('[role=cell]')).map((c) => c.textContent ?? '');
}

describe('RawFrames', () => {
  it('renders one row per event with offset, gap, tokens, flags, text and raw data', () => {
    const src = fixtureSource();
    render(<RawFrames source={src} count={src.n} requestId="req-1" />);
    const rows = screen.getAllByTestId('raw-frames-row');
    expect(rows).toHaveLength(7);
    const [idx, at, gap, tok, flags, text, raw] = cells(rows[1]!);
    expect(idx).toBe('1');
    expect(at).toBe('12.35');
    expect(gap).toBe((12.3456 - 5).toFixed(2));
    expect(tok).toBe('~1'); // estimated per event
    expect(flags).toBe('content');
    expect(text).toBe('"Hel"');
    expect(raw).toContain('{"choices":[{"delta":{"content":"Hel"}}]}');
    expect(cells(rows[0]!)[4]).toBe('empty');
    expect(cells(rows[0]!)[2]).toBe('—');
    expect(cells(rows[4]!)[4]).toBe('contentfinishcoalesced');
    expect(cells(rows[6]!)[4]).toBe('endcoalesced');
  });

  it('shows only the rows the summary store counted so far', () => {
    const src = fixtureSource();
    render(<RawFrames source={src} count={3} requestId="req-1" />);
    expect(screen.getAllByTestId('raw-frames-row')).toHaveLength(3);
    expect(screen.getByText('3 events')).toBeTruthy();
  });

  it('filters rows by text, raw data or flag', () => {
    const src = fixtureSource();
    render(<RawFrames source={src} count={src.n} requestId="req-1" />);
    const search = screen.getByTestId('raw-frames-search');
    fireEvent.change(search, { target: { value: 'usage' } });
    let rows = screen.getAllByTestId('raw-frames-row');
    expect(rows.map((r) => r.getAttribute('data-index'))).toEqual(['5']);
    fireEvent.change(search, { target: { value: 'WOR' } });
    rows = screen.getAllByTestId('raw-frames-row');
    expect(rows.map((r) => r.getAttribute('data-index'))).toEqual(['3']);
    expect(screen.getByText('1 of 7 events')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'nothing like this' } });
    expect(screen.queryAllByTestId('raw-frames-row')).toHaveLength(0);
    expect(screen.getByText('No event matches the filter.')).toBeTruthy();
  });

  it('expands a row into its full raw frame, pretty-printed', () => {
    const src = fixtureSource();
    render(<RawFrames source={src} count={src.n} requestId="req-1" />);
    fireEvent.click(screen.getAllByTestId('raw-frames-row')[5]!);
    const detail = screen.getByTestId('raw-frame-detail');
    expect(detail.querySelector('pre')!.textContent).toBe(
      JSON.stringify({ usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }, null, 2),
    );
  });

  it('is virtualised: 10 000 events put only a screenful of rows in the DOM', () => {
    const c = new LiveColumns();
    const n = 10_000;
    c.append({
      from: 0,
      t: Float64Array.from({ length: n }, (_, i) => i * 10),
      tokens: new Uint32Array(n).fill(1),
      read: Uint32Array.from({ length: n }, (_, i) => i),
      flags: new Uint16Array(n).fill(EV_CONTENT),
      size: new Uint32Array(n).fill(20),
      text: Array.from({ length: n }, (_, i) => `t${i}`),
      raw: Array.from({ length: n }, () => '{}'),
    });
    render(<RawFrames source={c} count={n} requestId="big" viewportHeight={240} />);
    const rows = screen.getAllByTestId('raw-frames-row');
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]!.getAttribute('data-index')).toBe('0');
    // Scroll to the middle: the rows there are rendered, at their offset.
    const vp = screen.getByTestId('raw-frames-viewport');
    vp.scrollTop = 5000 * ROW_H;
    fireEvent.scroll(vp);
    const indices = screen.getAllByTestId('raw-frames-row').map((r) => Number(r.getAttribute('data-index')));
    expect(indices).toContain(5000);
    expect(indices.length).toBeLessThan(40);
  });
});

describe('filterRows', () => {
  it('returns null for an empty query and matching indices otherwise', () => {
    const src = fixtureSource();
    expect(filterRows(src, src.n, '  ')).toBeNull();
    expect(Array.from(filterRows(src, src.n, 'coalesced')!)).toEqual([3, 4, 5, 6]);
    expect(Array.from(filterRows(src, src.n, 'done')!)).toEqual([6]);
  });
});
