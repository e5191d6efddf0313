/**
 * Web mode's pages on the socket: each page gets the core's events (queued until it says it is
 * ready), has its calls dispatched, and watches the /metrics it asked for, merged with every other
 * page's. serve.ts hands a socket over only once its guard checks passed.
 */
import type { RawData, WebSocket } from 'ws';
import type { ApiEvent, ApiEvents, ApiHandlers } from '../shared/api.ts';
import { decodeWire, encodeWire, type CoreMessage, type UiMessage } from '../shared/wire.ts';
import type { Core } from './app/core.ts';
import { dispatch } from './app/handlers.ts';
import { pushBounded } from '../shared/event-queue.ts';

/** Per socket: its readiness, its queued events, and the targets whose /metrics it watches. */
interface PageSocket {
  ws: WebSocket;
  ready: boolean;
  queue: string[];
  watches: string[];
}

export class PageSockets {
  private readonly sockets = new Set<PageSocket>();
  private closing = false;

  constructor(private readonly log?: (line: string) => void) {}

  /** The core's events, to every page (kept for a page that is not ready yet). */
  readonly emit = <E extends ApiEvent>(event: E, payload: ApiEvents[E]): void => {
    const text = encodeWire({ type: 'event', event, payload } satisfies CoreMessage);
    for (const s of this.sockets) {
      if (s.ready) s.ws.send(text);
      else pushBounded(s.queue, text); // the IPC's bound: a page that never says ready
    }
  };

  /** A page's socket, past the guard: events, calls and watches until it closes. */
  attach(ws: WebSocket, core: Core): void {
    const entry: PageSocket = { ws, ready: false, queue: [], watches: [] };
    const handlers = this.handlersFor(entry, core);
    this.sockets.add(entry);
    ws.on('close', () => {
      this.sockets.delete(entry);
      if (entry.watches.length > 0) void this.rewatch(core);
    });
    // A socket error (a message over maxPayload, a peer that vanished) closes that socket, never the process.
    ws.on('error', (e) => {
      this.log?.(`web socket closed: ${e.message}`);
      ws.terminate();
    });
    ws.on(
      'message',
      (data) =>
        void this.onMessage(entry, handlers, data).catch((e: unknown) =>
          this.log?.(`web socket message failed: ${String(e)}`),
        ),
    );
  }

  /** The server is closing: no more watch changes, every socket dropped. */
  closeAll(): void {
    this.closing = true;
    for (const s of this.sockets) s.ws.terminate();
  }

  // The core scrapes one set of targets; with several pages open it is the union of what each
  // asked for, and a page that goes away takes its watches with it (nothing scraped for nobody).
  private watchedUnion(): string[] {
    return [...new Set([...this.sockets].flatMap((s) => s.watches))];
  }

  private async rewatch(core: Core): Promise<void> {
    if (!this.closing) await core.handlers.watchMetrics(this.watchedUnion());
  }

  private handlersFor(entry: { watches: string[] }, core: Core): ApiHandlers {
    return {
      ...core.handlers,
      // Arguments are validated by dispatch before this runs.
      watchMetrics: async (ids) => {
        entry.watches = [...ids];
        const r = await core.handlers.watchMetrics(this.watchedUnion());
        return r.ok ? { ok: true, value: r.value.filter((st) => ids.includes(st.targetId)) } : r;
      },
    };
  }

  private async onMessage(entry: PageSocket, handlers: ApiHandlers, data: RawData): Promise<void> {
    const { ws } = entry;
    let msg: UiMessage;
    try {
      msg = decodeWire(String(data)) as UiMessage;
    } catch {
      return; // not our protocol; ignore rather than crash
    }
    // The envelope first: `null`, a number or an array is not a message.
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return;
    if (msg.type === 'ready') {
      entry.ready = true;
      for (const t of entry.queue) ws.send(t);
      entry.queue = [];
      return;
    }
    if (msg.type !== 'call' || typeof msg.id !== 'number') return;
    const result = await dispatch(handlers, String(msg.method), msg.args);
    if (ws.readyState === ws.OPEN)
      ws.send(encodeWire({ type: 'result', id: msg.id, result } satisfies CoreMessage));
  }
}
