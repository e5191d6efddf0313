/**
 * Events for a window or page that is not ready yet (Electron IPC: electron/ipc.ts; web mode:
 * electron/serve-sockets.ts) wait in a queue with one bound: a client that never becomes ready must
 * not grow memory without bound. Past it the oldest are dropped; the client reloads history and the
 * current request when it connects anyway.
 */
/** @internal exported for its tests */
export const MAX_QUEUED_EVENTS = 10_000;

/** Appends `item`, dropping the oldest past MAX_QUEUED_EVENTS. */
export function pushBounded<T>(queue: T[], item: T): void {
  queue.push(item);
  if (queue.length > MAX_QUEUED_EVENTS) queue.splice(0, queue.length - MAX_QUEUED_EVENTS);
}
