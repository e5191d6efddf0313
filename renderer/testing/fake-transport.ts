/** An in-memory Transport for tests: scripted method handlers, events emitted by hand. */
import type { ApiEvent, ApiEvents, ApiMethod, Result } from '../../shared/api.ts';
import type { ConnectionState, Transport } from '../core/transport/types.ts';

export class FakeTransport implements Transport {
  readonly kind = 'web' as const;
  readonly calls: { method: ApiMethod; args: unknown[] }[] = [];
  readySent = 0;
  private readonly subs = new Map<string, Set<(p: unknown) => void>>();
  private state: ConnectionState = { status: 'open', attempt: 0, retryAt: null, reconnects: 0, detail: null };
  private readonly connSubs = new Set<(s: ConnectionState) => void>();

  constructor(public handlers: Partial<Record<ApiMethod, (...args: unknown[]) => Result<unknown>>> = {}) {}

  async call(method: ApiMethod, args: unknown[]): Promise<Result<unknown>> {
    this.calls.push({ method, args });
    const h = this.handlers[method];
    return h ? h(...args) : { ok: false, error: { kind: 'client', message: `no fake for ${method}` } };
  }

  on<E extends ApiEvent>(event: E, cb: (payload: ApiEvents[E]) => void): () => void {
    let set = this.subs.get(event);
    if (!set) this.subs.set(event, (set = new Set()));
    set.add(cb as (p: unknown) => void);
    return () => set.delete(cb as (p: unknown) => void);
  }

  emit<E extends ApiEvent>(event: E, payload: ApiEvents[E]): void {
    for (const cb of this.subs.get(event) ?? []) cb(payload);
  }

  subscribers(event: ApiEvent): number {
    return this.subs.get(event)?.size ?? 0;
  }

  ready(): void {
    this.readySent++;
  }

  connection(): ConnectionState {
    return this.state;
  }

  setConnection(patch: Partial<ConnectionState>): void {
    this.state = { ...this.state, ...patch };
    for (const cb of this.connSubs) cb(this.state);
  }

  onConnection(cb: (s: ConnectionState) => void): () => void {
    this.connSubs.add(cb);
    return () => this.connSubs.delete(cb);
  }
}
