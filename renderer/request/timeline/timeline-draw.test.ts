import { describe, expect, it } from 'vitest';
import { EV_COALESCED, EV_CONTENT, EV_TERMINAL } from '../../../shared/request.ts';
import { countDrawn, drawTimeline, type LaneModel } from './timeline-draw.ts';
import { C } from '../../core/charts/theme.ts';
import { barHeight, laneAt, layoutTimeline, timelineHeight } from './timeline-layout.ts';

/** A 2D context that records what is drawn (no pixels): enough to check what and how much. */
function recordingContext() {
  const rects: { x: number; y: number; w: number; h: number; fill: string }[] = [];
  const texts: string[] = [];
  const state = { fillStyle: '' as unknown, strokeStyle: '' as unknown };
  const ctx = new Proxy(state as Record<string, unknown>, {
    get(target, prop) {
      if (prop in target) return target[prop as string];
      if (prop === 'fillRect')
        return (x: number, y: number, w: number, h: number) =>
          rects.push({ x, y, w, h, fill: String(target.fillStyle) });
      if (prop === 'fillText') return (t: string) => texts.push(t);
      if (prop === 'measureText') return (t: string) => ({ width: t.length * 6 });
      return () => {};
    },
    set(target, prop, value) {
      target[prop as string] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, rects, texts };
}

function lane(times: number[], flags: number[], tokens?: number[]): LaneModel {
  return {
    label: '',
    color: C.content,
    n: times.length,
    t: Float64Array.from(times),
    tokens: Uint32Array.from(tokens ?? flags.map((f) => (f & EV_CONTENT ? 1 : 0))),
    flags: Uint16Array.from(flags),
    firstEventMs: times[0] ?? null,
    ttftMs: times[flags.findIndex((f) => f & EV_CONTENT)] ?? null,
    endMs: times.at(-1) ?? null,
    errorAtMs: null,
    stalls: [],
    maxTokens: Math.max(1, ...(tokens ?? [1])),
  };
}

describe('timeline layout', () => {
  it('stacks lanes above one axis and finds the lane under y', () => {
    const one = layoutTimeline(800, 1);
    const two = layoutTimeline(800, 2);
    expect(two.height).toBe(timelineHeight(2));
    expect(two.height).toBeGreaterThan(one.height);
    expect(laneAt(two, two.lanes[0]!.top + 5)).toBe(0);
    expect(laneAt(two, two.lanes[1]!.baseline)).toBe(1);
    expect(laneAt(two, two.axisY + 10)).toBe(-1);
  });
  it('makes bar height proportional to tokens, with a visible minimum', () => {
    expect(barHeight(4, 4, 100)).toBe(100);
    expect(barHeight(2, 4, 100)).toBe(50);
    expect(barHeight(1, 1000, 100)).toBe(2);
    expect(barHeight(0, 4, 100)).toBe(0);
  });
});

describe('drawTimeline', () => {
  it('draws one bar per pixel column however many events there are (decimation)', () => {
    const n = 100_000;
    const times = Array.from({ length: n }, (_, i) => i * 0.1);
    const l = lane(
      times,
      times.map(() => EV_CONTENT),
    );
    const { ctx, rects } = recordingContext();
    const layout = layoutTimeline(1000, 1);
    const drawn = drawTimeline(ctx, layout, [l], { min: 0, max: 10_000 }, null);
    expect(drawn).toEqual([n]);
    const bars = rects.filter((r) => r.fill === C.content);
    expect(bars.length).toBeLessThanOrEqual(layout.right - layout.left + 1);
    expect(bars.length).toBeGreaterThan(800);
  });

  it('colours coalesced events and sizes bars by tokens', () => {
    const l = lane([10, 20, 30], [EV_CONTENT, EV_CONTENT | EV_COALESCED, EV_TERMINAL], [1, 3, 0]);
    const { ctx, rects } = recordingContext();
    const layout = layoutTimeline(600, 1);
    drawTimeline(ctx, layout, [l], { min: 0, max: 40 }, null);
    const plain = rects.filter((r) => r.fill === C.content);
    const coal = rects.filter((r) => r.fill === C.coalesced);
    expect(plain).toHaveLength(1);
    expect(coal).toHaveLength(1);
    expect(coal[0]!.h / plain[0]!.h).toBeCloseTo(3, 5);
    // The terminal event is a glyph in the meta strip, not a bar.
    expect(rects.some((r) => r.fill === C.terminal)).toBe(true);
  });

  it('labels the axis in ms and the markers with their values', () => {
    const l = lane([5, 12.3456, 40], [0, EV_CONTENT, EV_CONTENT]);
    const { ctx, texts } = recordingContext();
    drawTimeline(ctx, layoutTimeline(800, 1), [l], { min: 0, max: 50 }, null);
    expect(texts).toContain('time since request start (ms)');
    expect(texts).toContain('TTFT 12.35 ms');
    expect(texts).toContain('first event 5.00 ms');
    expect(texts).toContain('0');
    expect(texts).toContain('50');
  });

  it('counts only the events inside the view', () => {
    const l = lane([1, 2, 3, 50, 60], [1, 1, 1, 1, 1]);
    expect(countDrawn([l], { min: 0, max: 10 })).toEqual([3]);
    expect(countDrawn([l], { min: 0, max: 100 })).toEqual([5]);
  });
});
