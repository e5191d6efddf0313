/**
 * Electron: the preload exposes one async function per contract method (same arguments, same
 * Result values), `on(event, cb) → unsubscribe` and `ready()`. IPC cannot drop, so the
 * connection is always open.
 */
import type { ApiEvent, ApiEvents, ApiMethod, Result } from '../../../shared/api.ts';
import type { ConnectionState, Transport } from './types.ts';
import { errorMessage } from '../../../shared/result.ts';

export interface PreloadBridge {
  on(event: string, cb: (payload: unknown) => void): () => void;
  ready(): void;
  [method: string]: unknown;
}

const OPEN: ConnectionState = { status: 'open', attempt: 0, retryAt: null, reconnects: 0, detail: null };

export class ElectronTransport implements Transport {
  readonly kind = 'electron' as const;
  private isReady = false;

  constructor(private readonly bridge: PreloadBridge) {}

  async call(method: ApiMethod, args: unknown[]): Promise<Result<unknown>> {
    const fn = this.bridge[method];
    if (typeof fn !== 'function')
      return {
        ok: false,
        error: { kind: 'client', code: 'unknown-method', message: `The preload does not expose ${method}.` },
      };
    try {
      return (
        (await (fn as (...a: unknown[]) => Promise<Result<unknown>>)(...args)) ?? {
          ok: false,
          error: { kind: 'internal', message: `${method} returned nothing.` },
        }
      );
    } catch (e) {
      // invoke rejects only when the main process has no handler or crashed: still a value here.
      return { ok: false, error: { kind: 'internal', message: `${method} failed: ${errorMessage(e)}` } };
    }
  }

  on<E extends ApiEvent>(event: E, cb: (payload: ApiEvents[E]) => void): () => void {
    return this.bridge.on(event, cb as (p: unknown) => void);
  }

  ready(): void {
    if (this.isReady) return;
    this.isReady = true;
    this.bridge.ready();
  }

  connection(): ConnectionState {
    return OPEN;
  }

  onConnection(): () => void {
    return () => {};
  }
}
