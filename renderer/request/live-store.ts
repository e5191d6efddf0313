/**
 * All live request data of the session, outside React: one LiveRequest per request id, fed by
 * onRequestBatch / onRequestFinished and by reopened history snapshots. Subscribers are told
 * which request changed; canvases react by asking the frame scheduler for a redraw, stores by
 * recomputing their summaries a few times a second.
 */
import type { FireInput, RequestBatch, RequestSnapshot, RequestSummary } from '../../shared/api.ts';
import type { RequestRecord } from '../../shared/record.ts';
import type { Phases } from '../../shared/request.ts';
import { LiveColumns } from './columns.ts';
import { Listeners } from '../../shared/listeners.ts';

export interface LiveRequest {
  id: string;
  cols: LiveColumns;
  phases: Phases;
  status: number | null;
  bytes: number;
  reads: number;
  summary: RequestSummary | null;
  input: FireInput | null;
  /** The complete record, once the request finished (or was loaded from history). */
  final: RequestRecord | null;
  /** The server's span joined to it (the app's receiver), once it came. */
  server: RequestSnapshot['server'] | null;
  /** Bumped on every change. */
  version: number;
}

const EMPTY_PHASES: Phases = {
  connectedMs: null,
  requestWrittenMs: null,
  headersMs: null,
  firstByteMs: null,
  endMs: null,
};

/** @internal exported for its tests */
export type LiveListener = (id: string) => void;

/** @internal exported for its tests */
export class LiveStore {
  private readonly requests = new Map<string, LiveRequest>();
  private readonly listeners = new Listeners<string>();

  constructor(private readonly maxRequests = 60) {}

  get(id: string | null | undefined): LiveRequest | undefined {
    return id ? this.requests.get(id) : undefined;
  }

  get size(): number {
    return this.requests.size;
  }

  subscribe(fn: LiveListener): () => void {
    return this.listeners.add(fn);
  }

  private notify(id: string): void {
    this.listeners.emit(id);
  }

  ensure(id: string): LiveRequest {
    let r = this.requests.get(id);
    if (!r) {
      r = {
        id,
        cols: new LiveColumns(),
        phases: { ...EMPTY_PHASES },
        status: null,
        bytes: 0,
        reads: 0,
        summary: null,
        input: null,
        final: null,
        server: null,
        version: 0,
      };
      this.requests.set(id, r);
      this.evict(id);
    }
    return r;
  }

  started(summary: RequestSummary, input?: FireInput): void {
    const r = this.ensure(summary.id);
    r.summary = summary;
    if (input) r.input = input;
    r.version++;
    this.notify(summary.id);
  }

  setInput(id: string, input: FireInput): void {
    this.ensure(id).input = input;
  }

  batch(b: RequestBatch): void {
    const r = this.ensure(b.requestId);
    if (r.final) return; // late batch after the final snapshot: the snapshot is complete
    r.cols.append(b);
    r.phases = b.phases;
    r.status = b.status;
    r.bytes = b.bytes;
    r.reads = b.reads;
    r.version++;
    this.notify(b.requestId);
  }

  /** The finished request's complete record replaces what the batches built. */
  finished(s: RequestSnapshot): void {
    const r = this.ensure(s.summary.id);
    r.summary = s.summary;
    r.input = s.input;
    r.final = s.record;
    r.server = s.server ?? null;
    r.cols.load(s.record.events, s.record.raw);
    r.phases = s.record.phases;
    r.status = s.record.status;
    r.bytes = s.record.bytes;
    r.reads = s.record.reads;
    r.version++;
    this.notify(s.summary.id);
  }

  /** Drop the oldest requests beyond the cap (never the one just added). */
  private evict(keep: string): void {
    if (this.requests.size <= this.maxRequests) return;
    for (const id of this.requests.keys()) {
      if (this.requests.size <= this.maxRequests) break;
      if (id !== keep && !this.pinned.has(id)) this.requests.delete(id);
    }
  }

  /** Requests on screen (current, compared) are never evicted. */
  readonly pinned = new Set<string>();
}

export const liveStore = new LiveStore();
