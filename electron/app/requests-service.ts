/**
 * Runs the UI's requests through the engine and streams them to the UI as columnar batches:
 * at most one flush per BATCH_INTERVAL_MS (~30/s) whatever the event rate, each carrying every
 * row added since the last flush (VS Code batches terminal output the same way). Keeps the
 * last requests of the session for the history view (request-history.ts: bounded by entries and
 * by bytes).
 */
import { randomUUID } from 'node:crypto';
import type { FireInput, RequestSnapshot, RequestSummary } from '../../shared/api.ts';
import { BATCH_INTERVAL_MS } from '../../shared/api.ts';
import { StreamBatcher } from './stream-batcher.ts';
import { RequestHistory } from './request-history.ts';
import { sliceColumns } from '../../shared/event-columns.ts';
import type { RequestRecord } from '../../shared/record.ts';
import type { RequestSpec } from '../../shared/request.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { fireRequest } from '../engine/client.ts';
import { wallNow } from '../engine/clock.ts';
import type { ResolvedTarget } from './targets-service.ts';
import { originOf } from '../../shared/origin.ts';
import { looksSecretName } from '../../shared/redact.ts';
import type { Emit } from './emit.ts';
import type { DebuggerSpans } from './request-spans.ts';

/** The events a request service sends. */
type RequestEmit = Emit<'onRequestStarted' | 'onRequestBatch' | 'onRequestFinished'>;

interface Live {
  id: string;
  input: FireInput;
  target: ResolvedTarget;
  ac: AbortController;
  rec: RequestRecord | null;
  sent: number;
  batches: number;
  summary: RequestSummary;
}

export function specFromInput(input: FireInput, target: ResolvedTarget): RequestSpec {
  // An endpoint override on another host does not get the target's key or secret headers: they
  // belong to the target's server, not to wherever a typed URL points.
  const url = input.endpointUrl ?? target.baseUrl;
  const sameServer = originOf(url) === originOf(target.baseUrl);
  const secret = new Set(target.secretHeaderNames ?? []);
  const targetHeaders = sameServer
    ? target.headers
    : Object.fromEntries(
        Object.entries(target.headers).filter(([k]) => !secret.has(k) && !looksSecretName(k)),
      );
  return {
    url,
    dialect: input.dialect ?? target.dialect,
    model: input.model,
    prompt: input.prompt,
    messages: input.messages,
    ...(input.inputs ? { inputs: input.inputs } : {}),
    ...(input.topN !== undefined ? { topN: input.topN } : {}),
    params: input.params,
    extraBody: input.extraBody,
    headers: { ...targetHeaders, ...(input.headers ?? {}) },
    apiKey: sameServer ? target.apiKey : undefined,
    includeUsage: input.includeUsage,
    continuousUsage: input.continuousUsage,
    timeoutMs: input.timeoutMs,
    insecureTls: target.insecureTls,
    ...(input.traceHeaders === false ? { traceHeaders: false } : {}),
  };
}

export class RequestService {
  private readonly live = new Map<string, Live>();
  private readonly history: RequestHistory;
  private readonly batcher = new StreamBatcher(BATCH_INTERVAL_MS, () => this.flushAll());

  constructor(
    private readonly emit: RequestEmit,
    historyMaxBytes?: number,
    /** The app's span receiver: each request's server phases, when its server traces. */
    private readonly spans: DebuggerSpans | null = null,
  ) {
    this.history = new RequestHistory(undefined, historyMaxBytes);
  }

  fire(input: FireInput, target: ResolvedTarget): string {
    const id = randomUUID();
    const spec = specFromInput(input, target);
    const summary: RequestSummary = {
      id,
      targetId: target.id,
      targetName: target.name,
      model: input.model,
      dialect: spec.dialect,
      startedAtWall: wallNow(),
      state: 'running',
      ttftMs: null,
      e2eMs: null,
      outputTokens: 0,
      errorKind: null,
      promptPreview: (input.prompt ?? input.messages?.at(-1)?.content ?? input.inputs?.[0] ?? '').slice(
        0,
        120,
      ),
    };
    const l: Live = { id, input, target, ac: new AbortController(), rec: null, sent: 0, batches: 0, summary };
    this.live.set(id, l);
    this.emit('onRequestStarted', summary);
    this.batcher.poke();
    void fireRequest(spec, {
      id,
      signal: l.ac.signal,
      keepRaw: true,
      onProgress: (rec) => {
        l.rec = rec;
      },
      onTrace: this.spans ? (t) => this.spans!.expect(t) : undefined,
    }).then((rec) => this.finish(l, rec));
    return id;
  }

  cancel(id: string): boolean {
    const l = this.live.get(id);
    if (!l) return false;
    l.ac.abort();
    return true;
  }

  get(id: string): RequestSnapshot | null {
    return this.history.get(id);
  }

  list(): RequestSummary[] {
    return [...[...this.live.values()].map((l) => l.summary), ...this.history.summaries()];
  }

  /** Cancel everything (app quit). */
  dispose(): void {
    for (const l of this.live.values()) l.ac.abort();
    this.batcher.dispose();
  }

  /** Every live request's new events; the batcher stops when none is left. */
  private flushAll(): boolean {
    for (const l of this.live.values()) this.flush(l);
    return this.live.size > 0;
  }

  private flush(l: Live): void {
    const rec = l.rec;
    if (!rec) return;
    const n = rec.events.n;
    // Nothing new since the last batch (the first batch goes out at headers, to show the status).
    if (n === l.sent && l.batches > 0) return;
    l.batches++;
    const from = l.sent;
    const { n: _rows, ...rows } = sliceColumns(rec.events, from, n);
    this.emit('onRequestBatch', {
      requestId: l.id,
      from,
      ...rows,
      raw: rec.raw ? rec.raw.slice(from, n) : [],
      phases: { ...rec.phases },
      status: rec.status,
      bytes: rec.bytes,
      reads: rec.reads,
    });
    l.sent = n;
  }

  private finish(l: Live, rec: RequestRecord): void {
    l.rec = rec;
    this.flush(l);
    this.live.delete(l.id);
    const s = computeRequestStats(rec);
    const state: RequestSummary['state'] =
      rec.error?.code === 'cancelled' ? 'cancelled' : rec.error ? 'error' : 'done';
    l.summary = {
      ...l.summary,
      state,
      ttftMs: s.ttftMs,
      e2eMs: s.e2eMs,
      outputTokens: s.outputTokens,
      errorKind: rec.error?.kind ?? null,
    };
    const snap: RequestSnapshot = {
      summary: l.summary,
      input: l.input,
      record: { ...rec, events: sliceColumns(rec.events) },
    };
    this.history.add(snap);
    this.emit('onRequestFinished', snap);
    if (this.spans && rec.trace)
      void this.spans.serverOf(rec.trace, rec.url).then((server) => {
        if (!server) return;
        snap.server = server; // the history's snapshot too
        this.emit('onRequestFinished', snap);
      });
  }
}
