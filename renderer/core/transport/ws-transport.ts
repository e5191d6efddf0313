/**
 * Web mode: the contract over one WebSocket (shared/wire.ts). Calls are correlated by id;
 * events go to subscribers; `ready` is sent on every (re)connect once the app has subscribed,
 * because the server queues events per socket until then. A dropped socket fails the calls in
 * flight (as values, never throws) and reconnects with exponential backoff; calls made while
 * disconnected wait for the link. A browser hides why an upgrade was refused, so after a failed
 * connect the transport asks (`checkAuth`, over plain HTTP): a missing or wrong token stops the
 * retries and says so, until `setToken` gives a new one.
 */
import type { ApiEvent, ApiEvents, ApiMethod, Result } from '../../../shared/api.ts';
import { decodeWire, encodeWire, type CoreMessage, type UiMessage } from '../../../shared/wire.ts';
import type { ConnectionState, Transport } from './types.ts';
import type { AuthState } from './web-api.ts';
import { errorMessage } from '../../../shared/result.ts';
import { Listeners } from '../../../shared/listeners.ts';

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code?: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface WsTransportOptions {
  url: string;
  createSocket?: (url: string) => SocketLike;
  setTimer?: (cb: () => void, ms: number) => unknown;
  clearTimer?: (h: unknown) => void;
  now?: () => number;
  /** Backoff: base × 2^attempt, capped, with ±20 % jitter. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  random?: () => number;
  /** Why a connect failed, asked over HTTP; absent: every failure is retried. */
  checkAuth?: () => Promise<AuthState>;
}

const AUTH_DETAIL: Record<Exclude<AuthState, 'ok' | 'unreachable'>, string> = {
  'missing-token':
    'This page has no access token. Open the address tokenscope serve printed (it ends in ?token=…), or paste the token below.',
  'wrong-token':
    'The server refused this page’s access token (was tokenscope serve restarted?). Open the address it printed now, or paste the new token below.',
  host: 'The server refused the host name in this address (a guard against DNS rebinding). Open it via localhost or an IP address, or start tokenscope serve --allow-host NAME.',
};

const OPEN = 1;

/** @internal exported for its tests */
export function backoffDelay(attempt: number, base: number, max: number, random: () => number): number {
  const d = Math.min(max, base * 2 ** Math.min(attempt, 16));
  return Math.round(d * (0.8 + 0.4 * random()));
}

export class WsTransport implements Transport {
  readonly kind = 'web' as const;
  private socket: SocketLike | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (r: Result<unknown>) => void>();
  /** Calls made while the link was down, sent on the next open (their ids are still pending). */
  private outbox: { id: number; text: string }[] = [];
  private readonly subs = new Map<string, Set<(p: unknown) => void>>();
  private readonly connListeners = new Listeners<ConnectionState>();
  private appReady = false;
  private retryTimer: unknown = null;
  private state: ConnectionState = {
    status: 'connecting',
    attempt: 0,
    retryAt: null,
    reconnects: 0,
    detail: null,
  };
  private everOpen = false;
  private readonly o: Required<Omit<WsTransportOptions, 'checkAuth'>> & Pick<WsTransportOptions, 'checkAuth'>;
  private url: string;

  constructor(opts: WsTransportOptions) {
    this.o = {
      createSocket: (u) => new WebSocket(u) as unknown as SocketLike,
      setTimer: (cb, ms) => setTimeout(cb, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      now: () => Date.now(),
      backoffBaseMs: 500,
      backoffMaxMs: 10_000,
      random: Math.random,
      ...opts,
    };
    this.url = opts.url;
    this.connect();
  }

  private setState(patch: Partial<ConnectionState>): void {
    this.state = { ...this.state, ...patch };
    this.connListeners.emit(this.state);
  }

  private connect(): void {
    this.retryTimer = null;
    let ws: SocketLike;
    try {
      ws = this.o.createSocket(this.url);
    } catch (e) {
      this.scheduleReconnect(`cannot open the socket: ${errorMessage(e)}`);
      return;
    }
    this.socket = ws;
    ws.onopen = () => {
      const reconnects = this.state.reconnects + (this.everOpen ? 1 : 0);
      this.everOpen = true;
      this.setState({ status: 'open', attempt: 0, retryAt: null, detail: null, reconnects });
      if (this.appReady) this.rawSend({ type: 'ready' });
      const queued = this.outbox;
      this.outbox = [];
      for (const q of queued) ws.send(q.text);
    };
    ws.onmessage = (ev) => this.onMessage(ev.data);
    ws.onerror = () => {
      // onclose follows and does the work; the error event carries no useful detail in browsers.
    };
    ws.onclose = (ev) => {
      if (this.socket !== ws) return;
      this.socket = null;
      // Calls that went out on this socket lost their answer; calls still waiting in the outbox
      // were never sent and go out on the next link.
      const waiting = new Set(this.outbox.map((q) => q.id));
      for (const [id, resolve] of this.pending) {
        if (waiting.has(id)) continue;
        this.pending.delete(id);
        resolve({
          ok: false,
          error: {
            kind: 'network',
            code: 'disconnected',
            message: 'The connection to Tokenscope was lost before the answer came.',
          },
        });
      }
      const why = ev.reason
        ? ev.reason
        : this.everOpen
          ? 'connection lost'
          : 'cannot connect (is tokenscope serve running, and did the page URL carry its token?)';
      if (!this.o.checkAuth) {
        this.scheduleReconnect(why);
        return;
      }
      const check = this.o.checkAuth;
      void check().then(
        (auth) => {
          if (this.socket !== null || this.retryTimer !== null) return; // setToken came first
          if (auth === 'ok' || auth === 'unreachable') this.scheduleReconnect(why);
          else this.setState({ status: 'unauthorized', retryAt: null, detail: AUTH_DETAIL[auth] });
        },
        () => this.scheduleReconnect(why),
      );
    };
  }

  /** A new access token (typed by the user): connect with it now. */
  setToken(token: string): void {
    const u = new URL(this.url);
    u.searchParams.set('token', token);
    this.url = u.href;
    if (this.retryTimer !== null) this.o.clearTimer(this.retryTimer);
    this.retryTimer = null;
    if (this.socket) return; // open: the next connect uses it
    this.setState({ status: this.everOpen ? 'reconnecting' : 'connecting', detail: null, retryAt: null });
    this.connect();
  }

  private scheduleReconnect(detail: string): void {
    const attempt = this.state.attempt;
    const delay = backoffDelay(attempt, this.o.backoffBaseMs, this.o.backoffMaxMs, this.o.random);
    this.setState({
      status: this.everOpen ? 'reconnecting' : 'connecting',
      attempt: attempt + 1,
      retryAt: this.o.now() + delay,
      detail,
    });
    this.retryTimer = this.o.setTimer(() => this.connect(), delay);
  }

  /** Try again now (the banner's "retry" button). */
  retryNow(): void {
    if (this.socket || this.retryTimer === null) return;
    this.o.clearTimer(this.retryTimer);
    this.connect();
  }

  private onMessage(data: unknown): void {
    let msg: CoreMessage;
    try {
      msg = decodeWire(String(data)) as CoreMessage;
    } catch {
      console.warn('tokenscope: ignored a malformed message from the server');
      return;
    }
    if (msg.type === 'result') {
      const resolve = this.pending.get(msg.id);
      if (resolve) {
        this.pending.delete(msg.id);
        resolve(msg.result);
      }
    } else if (msg.type === 'event') {
      const set = this.subs.get(msg.event);
      if (set) for (const cb of [...set]) cb(msg.payload);
    }
  }

  private rawSend(m: UiMessage): void {
    const text = encodeWire(m);
    if (this.socket && this.socket.readyState === OPEN) this.socket.send(text);
    else if (m.type === 'call') this.outbox.push({ id: m.id, text });
  }

  call(method: ApiMethod, args: unknown[]): Promise<Result<unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      try {
        this.rawSend({ type: 'call', id, method, args });
      } catch (e) {
        this.pending.delete(id);
        resolve({
          ok: false,
          error: {
            kind: 'client',
            code: 'encode',
            message: `Could not send ${method}: ${errorMessage(e)}`,
          },
        });
      }
    });
  }

  on<E extends ApiEvent>(event: E, cb: (payload: ApiEvents[E]) => void): () => void {
    let set = this.subs.get(event);
    if (!set) this.subs.set(event, (set = new Set()));
    const f = cb as (p: unknown) => void;
    set.add(f);
    return () => set.delete(f);
  }

  ready(): void {
    if (this.appReady) return;
    this.appReady = true;
    if (this.socket && this.socket.readyState === OPEN) this.rawSend({ type: 'ready' });
  }

  connection(): ConnectionState {
    return this.state;
  }

  onConnection(cb: (s: ConnectionState) => void): () => void {
    return this.connListeners.add(cb);
  }
}
