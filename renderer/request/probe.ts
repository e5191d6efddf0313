/**
 * The e2e probe: one element (data-testid="request-state") whose attributes tell tests what
 * the UI shows, so they wait on state instead of sleeping. Written in phase 1 of a frame, after
 * the canvases of that frame drew, so `data-state="done"` never appears before the timeline
 * has drawn the final events:
 *   data-state       idle | running | done | error | cancelled
 *   data-request-id  the current request
 *   data-events      events drawn on the main timeline for that request
 *   data-ttft-ms     TTFT (computeRequestStats), full precision; '' before the first token
 */
import { useRequestStore } from './request-store.ts';
import { frames } from '../core/scheduler.ts';

const drawn = new Map<string, number>();
let el: HTMLElement | null = null;

function write(): void {
  if (!el) return;
  const { current } = useRequestStore.getState();
  const id = current.id ?? '';
  const ttft = current.stats?.ttftMs;
  el.setAttribute('data-state', current.state);
  el.setAttribute('data-request-id', id);
  el.setAttribute('data-events', String(id ? (drawn.get(id) ?? 0) : 0));
  el.setAttribute('data-ttft-ms', ttft === null || ttft === undefined ? '' : String(ttft));
}

export function attachProbe(node: HTMLElement | null): void {
  el = node;
  if (node) write();
}

/** The main timeline tells how many events of `requestId` it drew this frame. */
export function reportDrawn(requestId: string, events: number): void {
  drawn.set(requestId, events);
  frames.schedule(write, 1);
}

useRequestStore.subscribe(() => frames.schedule(write, 1));
