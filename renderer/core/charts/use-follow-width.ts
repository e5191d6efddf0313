/**
 * Keeps `widthRef` at the container's width (whole CSS pixels) and schedules `job` on the shared
 * frame loop when it changes: the canvas charts (timeline, swimlane, heatmap) draw at that width.
 * Off when `enabled` is false (a chart given a fixed width, as in tests).
 */
import { useEffect, type RefObject } from 'react';
import { frames } from '../scheduler.ts';

export function useFollowWidth(
  wrapRef: RefObject<HTMLElement | null>,
  widthRef: { current: number },
  job: () => void,
  enabled = true,
): void {
  useEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap || !enabled) return;
    const measure = (): void => {
      const w = Math.floor(wrap.clientWidth);
      if (w > 0 && w !== widthRef.current) {
        widthRef.current = w;
        frames.schedule(job);
      }
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(wrap);
    return () => ro.disconnect();
  }, [wrapRef, widthRef, job, enabled]);
}
