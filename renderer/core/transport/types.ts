/** What the renderer needs from a transport, whichever carries it (Electron IPC or WebSocket). */
import type { ApiEvent, ApiEvents, ApiMethod, Result } from '../../../shared/api.ts';

/** `unauthorized`: the server refused this page's token (or its Host); no retry until a new token is given. */
type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'unauthorized';

export interface ConnectionState {
  status: ConnectionStatus;
  /** Reconnect attempts since the link was last open. */
  attempt: number;
  /** When the next attempt starts (Date.now() ms), while reconnecting. */
  retryAt: number | null;
  /** Times the link came back after a drop (events sent meanwhile were lost). */
  reconnects: number;
  detail: string | null;
}

export interface Transport {
  readonly kind: 'electron' | 'web';
  call(method: ApiMethod, args: unknown[]): Promise<Result<unknown>>;
  on<E extends ApiEvent>(event: E, cb: (payload: ApiEvents[E]) => void): () => void;
  /** Subscriptions are in place: the core may send its queued events. */
  ready(): void;
  connection(): ConnectionState;
  onConnection(cb: (s: ConnectionState) => void): () => void;
  /** Web mode: use this access token from now on and connect again. */
  setToken?(token: string): void;
}
