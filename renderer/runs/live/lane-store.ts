/**
 * The swimlane's data: one lane per request, append-only typed arrays outside React (docs/ARCHITECTURE.md
 * "live data stays out of React state"). Fed by onRunLanes batches while a run goes, or built
 * from a finished run's lines; the canvas draws from it every frame.
 *
 * Times are ms since the measured part of the run began. Warm-up requests count from the
 * warm-up's own start, so they are left out (the dashboard shows their count instead).
 *
 * Rows: a lane occupies its row from arrival (queue segment) to its end; a row is reused by a
 * later request that arrives after the row's last request ended. With a rate of ∞ every request
 * arrives at 0, so every request gets its own row; with a finite rate rows ≈ the peak of
 * requests in flight + queued, so the picture stays readable at hundreds of streams.
 */
import type { RunLaneBatch } from '../../../shared/runs-api.ts';
import { requestOriginMs } from '../../../shared/runs/summary/outcome.ts';
import type { RunRequestLine } from '../../../shared/runs/file/line-schema.ts';
import type { ReportLanes } from '../../../shared/report/report-types.ts';
import { Listeners } from '../../../shared/listeners.ts';

export const LANE_RUNNING = 0;
/** @internal exported for its tests */
export const LANE_OK = 1;
export const LANE_ERROR = 2;

function grow<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  let n = Math.max(16, a.length * 2);
  while (n < need) n *= 2;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}

export class LaneStore {
  runId: string | null = null;
  /** Lanes (requests). */
  n = 0;
  seq = new Int32Array(64);
  arrivedMs = new Float64Array(64);
  startedMs = new Float64Array(64);
  /** TTFT (ms since the request was sent); NaN until known. */
  ttftMs = new Float64Array(64);
  /** End (ms since run start); NaN while running. */
  endMs = new Float64Array(64);
  status = new Uint8Array(64);
  row = new Int32Array(64);
  outTokens = new Uint32Array(64);
  ids: string[] = [];
  errors = new Map<number, string>();
  private index = new Map<string, number>();

  rows = 0;
  private rowFreeAt = new Float64Array(64);

  /** Events: lane, time (ms since run start), tokens. Appended in arrival order. */
  en = 0;
  evLane = new Int32Array(1024);
  evT = new Float64Array(1024);
  evTok = new Uint32Array(1024);
  /** Chunks of events (one per batch, or per line) with their time range, to skip what is off screen. */
  cn = 0;
  chunkFrom = new Int32Array(64);
  chunkMinT = new Float64Array(64);
  chunkMaxT = new Float64Array(64);

  /** Per 1-s bucket: output tokens, requests that succeeded, requests that failed. */
  tokPerS = new Float64Array(64);
  okPerS = new Float64Array(64);
  errPerS = new Float64Array(64);
  buckets = 0;

  /** Latest time anything happened (ms). */
  lastMs = 0;
  running = 0;
  /** Bumped on every change: views redraw when it moves. */
  version = 0;
  private readonly listeners = new Listeners();

  reset(runId: string | null): void {
    this.runId = runId;
    this.n = 0;
    this.ids = [];
    this.errors.clear();
    this.index.clear();
    this.rows = 0;
    this.en = 0;
    this.cn = 0;
    this.tokPerS.fill(0);
    this.okPerS.fill(0);
    this.errPerS.fill(0);
    this.buckets = 0;
    this.lastMs = 0;
    this.running = 0;
    this.changed();
  }

  subscribe(cb: () => void): () => void {
    return this.listeners.add(cb);
  }

  private changed(): void {
    this.version++;
    this.listeners.emit();
  }

  laneOf(id: string): number {
    return this.index.get(id) ?? -1;
  }

  private bucket(ms: number): number {
    const b = Math.max(0, Math.floor(ms / 1000));
    if (b >= this.tokPerS.length) {
      this.tokPerS = grow(this.tokPerS, b + 1);
      this.okPerS = grow(this.okPerS, b + 1);
      this.errPerS = grow(this.errPerS, b + 1);
    }
    if (b + 1 > this.buckets) this.buckets = b + 1;
    return b;
  }

  private pickRow(arrivedMs: number): number {
    for (let r = 0; r < this.rows; r++) if (this.rowFreeAt[r]! <= arrivedMs) return r;
    this.rowFreeAt = grow(this.rowFreeAt, this.rows + 1);
    return this.rows++;
  }

  private addLane(id: string, seq: number, arrivedMs: number, startedMs: number): number {
    const i = this.n++;
    const need = i + 1;
    this.seq = grow(this.seq, need);
    this.arrivedMs = grow(this.arrivedMs, need);
    this.startedMs = grow(this.startedMs, need);
    this.ttftMs = grow(this.ttftMs, need);
    this.endMs = grow(this.endMs, need);
    this.status = grow(this.status, need);
    this.row = grow(this.row, need);
    this.outTokens = grow(this.outTokens, need);
    this.seq[i] = seq;
    this.arrivedMs[i] = arrivedMs;
    this.startedMs[i] = startedMs;
    this.ttftMs[i] = NaN;
    this.endMs[i] = NaN;
    this.status[i] = LANE_RUNNING;
    this.outTokens[i] = 0;
    const r = this.pickRow(arrivedMs);
    this.row[i] = r;
    this.rowFreeAt[r] = Infinity;
    this.ids.push(id);
    this.index.set(id, i);
    this.running++;
    if (startedMs > this.lastMs) this.lastMs = startedMs;
    return i;
  }

  private finishLane(
    i: number,
    ok: boolean,
    endMs: number,
    ttftMs: number | null,
    error: string | null,
  ): void {
    if (this.status[i] !== LANE_RUNNING) return;
    this.status[i] = ok ? LANE_OK : LANE_ERROR;
    this.endMs[i] = endMs;
    if (ttftMs !== null) this.ttftMs[i] = ttftMs;
    if (error) this.errors.set(i, error);
    this.rowFreeAt[this.row[i]!] = endMs;
    this.running--;
    const b = this.bucket(endMs);
    if (ok) this.okPerS[b]!++;
    else this.errPerS[b]!++;
    if (endMs > this.lastMs) this.lastMs = endMs;
  }

  private beginChunk(): void {
    const c = this.cn++;
    this.chunkFrom = grow(this.chunkFrom, c + 1);
    this.chunkMinT = grow(this.chunkMinT, c + 1);
    this.chunkMaxT = grow(this.chunkMaxT, c + 1);
    this.chunkFrom[c] = this.en;
    this.chunkMinT[c] = Infinity;
    this.chunkMaxT[c] = -Infinity;
  }

  private addEvents(lane: number, t: readonly number[], tok: readonly number[], offset: number): void {
    const k = t.length;
    if (k === 0) return;
    const need = this.en + k;
    if (need > this.evT.length) {
      this.evLane = grow(this.evLane, need);
      this.evT = grow(this.evT, need);
      this.evTok = grow(this.evTok, need);
    }
    const c = this.cn - 1;
    let lo = this.chunkMinT[c]!;
    let hi = this.chunkMaxT[c]!;
    let tokens = 0;
    for (let j = 0; j < k; j++) {
      const at = t[j]! + offset;
      const n = tok[j] ?? 0;
      const e = this.en++;
      this.evLane[e] = lane;
      this.evT[e] = at;
      this.evTok[e] = n;
      if (at < lo) lo = at;
      if (at > hi) hi = at;
      if (n > 0) {
        tokens += n;
        this.tokPerS[this.bucket(at)]! += n;
        // TTFT live: the first event with a generated token.
        if (Number.isNaN(this.ttftMs[lane]!)) this.ttftMs[lane] = at - this.startedMs[lane]!;
      }
    }
    this.chunkMinT[c] = lo;
    this.chunkMaxT[c] = hi;
    this.outTokens[lane]! += tokens;
    if (hi > this.lastMs) this.lastMs = hi;
  }

  /** One onRunLanes batch (events carry absolute times). */
  apply(b: RunLaneBatch): void {
    if (b.runId !== this.runId) return;
    for (const s of b.starts)
      if (!s.warmup && !this.index.has(s.id)) this.addLane(s.id, s.seq, s.arrivedMs, s.startedMs);
    this.beginChunk();
    for (const e of b.events) {
      const i = this.index.get(e.id);
      if (i !== undefined) this.addEvents(i, e.t, e.tok, 0);
    }
    for (const d of b.done) {
      const i = this.index.get(d.id);
      if (i === undefined) continue;
      this.finishLane(
        i,
        d.ok,
        d.endMs,
        d.ttftMs,
        d.ok ? null : `${d.errorKind ?? 'error'}: ${d.errorMessage ?? ''}`,
      );
      this.outTokens[i] = Math.max(this.outTokens[i]!, d.outputTokens);
    }
    this.changed();
  }

  /**
   * A finished run's lines: event times count from the request's send (`sentMs`, else `startedMs`
   * in older files: shared/runs/summary/outcome.ts requestOriginMs), which is where its lane starts.
   */
  loadLines(runId: string, lines: readonly RunRequestLine[]): void {
    this.reset(runId);
    const measured = lines
      .filter((l) => !l.warmup)
      .sort((a, b) => requestOriginMs(a) - requestOriginMs(b) || a.seq - b.seq);
    for (const l of measured) {
      const origin = requestOriginMs(l);
      const i = this.addLane(l.id, l.seq, l.arrivedMs, origin);
      this.beginChunk();
      this.addEvents(i, l.events.t, l.events.tok, origin);
      const end =
        origin + (l.e2eMs ?? l.phases.endMs ?? (l.events.t.length ? l.events.t[l.events.t.length - 1]! : 0));
      const err = l.error ? `${l.error.kind}/${l.error.code}: ${l.error.message}` : null;
      this.finishLane(i, l.status === 'ok', end, l.ttftMs, err);
      this.outTokens[i] = Math.max(this.outTokens[i]!, l.outputTokens);
    }
    this.changed();
  }

  /**
   * A report's lanes (shared/report/report-lanes.ts): the same requests in the same order as
   * loadLines, token ticks maybe thinned, so the tokens per second come with them, exact.
   */
  loadReport(runId: string, r: ReportLanes): void {
    this.reset(runId);
    let k = 0;
    for (let i = 0; i < r.id.length; i++) {
      const lane = this.addLane(r.id[i]!, r.seq[i]!, r.arrivedMs[i]!, r.startedMs[i]!);
      this.beginChunk();
      const n = r.tickCount[i]!;
      this.addEvents(lane, r.tickT.slice(k, k + n), r.tickTok.slice(k, k + n), r.startedMs[i]!);
      k += n;
      this.finishLane(lane, r.ok[i] === 1, r.startedMs[i]! + r.endAfterMs[i]!, r.ttftMs[i]!, null);
      this.outTokens[lane] = Math.max(this.outTokens[lane]!, r.outTokens[i]!);
    }
    for (const [lane, text] of r.errors) this.errors.set(lane, text);
    this.tokPerS = grow(this.tokPerS, r.tokPerS.length);
    this.tokPerS.fill(0);
    this.tokPerS.set(r.tokPerS);
    this.buckets = Math.max(this.buckets, r.tokPerS.length);
    this.changed();
  }
}

/** The live run's lanes (the dashboard). */
export const liveLanes = new LaneStore();
