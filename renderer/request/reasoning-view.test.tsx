// @vitest-environment happy-dom
// What the request view shows of reasoning: the stats panel's first reasoning / TTFAT / token split,
// the timeline legend's reasoning entry, the bars' colours and the TTFAT marker — and nothing of it
// for a request that did not reason.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EV_CONTENT, EV_REASONING, EV_TERMINAL, EV_TOKENS_EXACT } from '../../shared/request.ts';
import { newRecord, type RequestRecord } from '../../shared/record.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { digestOf } from './record-view.ts';
import { handMadeRecord } from '../testing/record-fixture.ts';
import { StatsPanel } from './StatsPanel.tsx';
import { TimelineLegend } from './timeline/TimelineLegend.tsx';
import { drawTimeline, type LaneModel } from './timeline/timeline-draw.ts';
import { layoutTimeline } from './timeline/timeline-layout.ts';
import { C } from '../core/charts/theme.ts';

afterEach(cleanup);

const X = EV_CONTENT | EV_TOKENS_EXACT;
const R = EV_REASONING;

/** Reasoning at 10 and 20 ms (2 + 1 tokens), the answer at 45 and 50 ms (1 + 1), the end at 55. */
function thinkingRecord(): RequestRecord {
  const rows: [number, number, number][] = [
    [10, 2, X | R],
    [20, 1, X | R],
    [45, 1, X],
    [50, 1, X],
    [55, 0, EV_TERMINAL],
  ];
  return newRecord({
    id: 'think',
    url: '',
    dialect: 'openai-chat',
    model: 'm',
    startedAtWall: 0,
    phases: { connectedMs: 1, requestWrittenMs: 2, headersMs: 3, firstByteMs: 10, endMs: 55 },
    status: 200,
    reasoning: 'hm, so',
    text: 'Hi!',
    events: {
      n: rows.length,
      t: Float64Array.from(rows.map((r) => r[0])),
      tokens: Uint32Array.from(rows.map((r) => r[1])),
      flags: Uint16Array.from(rows.map((r) => r[2])),
      read: Uint32Array.from(rows.map((_, i) => i)),
      text: rows.map(() => ''),
      size: new Uint32Array(rows.length),
    },
  });
}

describe('stats panel', () => {
  it('shows first reasoning token, TTFAT and the reasoning/answer tokens of a request that reasoned', () => {
    const rec = thinkingRecord();
    render(<StatsPanel stats={computeRequestStats(rec)} digest={digestOf(rec)} />);
    expect(screen.getByTestId('stats-ttft').textContent).toBe('10.00 ms');
    expect(screen.getByTestId('stats-first-reasoning').textContent).toBe('10.00 ms');
    expect(screen.getByTestId('stats-ttfat').textContent).toBe('45.00 ms');
    // Per-event counts from the server: exact, no "~".
    expect(screen.getByTestId('stats-reasoning-tokens').textContent).toBe('3');
    expect(screen.getByTestId('stats-answer-tokens').textContent).toBe('2');
  });

  it('shows none of it for a request without reasoning', () => {
    const rec = handMadeRecord();
    render(<StatsPanel stats={computeRequestStats(rec)} digest={digestOf(rec)} />);
    expect(screen.getByTestId('stats-ttft')).toBeTruthy();
    for (const id of [
      'stats-first-reasoning',
      'stats-ttfat',
      'stats-reasoning-tokens',
      'stats-answer-tokens',
    ])
      expect(screen.queryByTestId(id)).toBeNull();
  });
});

describe('timeline', () => {
  it('the legend names the reasoning colour and TTFAT only when there was reasoning', () => {
    const { unmount } = render(<TimelineLegend reasoning />);
    const item = screen.getByTestId('legend-reasoning');
    expect(item.textContent).toContain('reasoning');
    expect((item.querySelector('i') as HTMLElement).style.background).toBe(C.reasoning);
    expect(screen.getByText(/answer \(height/)).toBeTruthy();
    expect(screen.getByText('TTFAT')).toBeTruthy();
    unmount();
    render(<TimelineLegend />);
    expect(screen.queryByTestId('legend-reasoning')).toBeNull();
    expect(screen.queryByText('TTFAT')).toBeNull();
  });

  it('draws reasoning bars in the reasoning colour, answer bars in the lane colour, and a TTFAT marker', () => {
    const rec = thinkingRecord();
    const s = computeRequestStats(rec);
    const ev = rec.events;
    const lane: LaneModel = {
      label: '',
      color: C.content,
      n: ev.n,
      t: ev.t,
      tokens: ev.tokens,
      flags: ev.flags,
      firstEventMs: s.firstEventMs,
      ttftMs: s.ttftMs,
      firstAnswerMs: s.firstAnswerMs,
      endMs: 55,
      errorAtMs: null,
      stalls: [],
      maxTokens: 2,
    };
    const rects: { fill: string }[] = [];
    const texts: string[] = [];
    const state: Record<string, unknown> = { fillStyle: '' };
    const ctx = new Proxy(state, {
      get(target, prop) {
        if (prop in target) return target[prop as string];
        if (prop === 'fillRect') return () => rects.push({ fill: String(target.fillStyle) });
        if (prop === 'fillText') return (t: string) => texts.push(t);
        if (prop === 'measureText') return (t: string) => ({ width: t.length * 6 });
        return () => {};
      },
      set(target, prop, value) {
        target[prop as string] = value;
        return true;
      },
    }) as unknown as CanvasRenderingContext2D;
    drawTimeline(ctx, layoutTimeline(800, 1), [lane], { min: 0, max: 60 }, null);
    expect(rects.filter((r) => r.fill === C.reasoning)).toHaveLength(2);
    expect(rects.filter((r) => r.fill === C.content)).toHaveLength(2);
    expect(texts).toContain('TTFAT 45.00 ms');
    expect(texts).toContain('TTFT 10.00 ms');
  });
});
