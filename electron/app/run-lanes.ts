/**
 * A load run's swimlane traffic for the UI, batched: the requests that started, the events that
 * arrived and the requests that ended since the last batch, emitted as one RunLaneBatch at most
 * every LANE_INTERVAL_MS for the whole run (lanes start, tick and end all along).
 */
import type { RequestRecord } from '../../shared/record.ts';
import { requestOriginMs } from '../../shared/runs/summary/outcome.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { RunRequestStart } from '../../shared/runs/live/progress-types.ts';
import type { RunLaneBatch } from '../../shared/runs-api.ts';
import { StreamBatcher } from './stream-batcher.ts';

/** Swimlane batches: at most this often (ms). */
const LANE_INTERVAL_MS = 100;

export class RunLanes {
  private lanes: RunLaneBatch;
  private readonly startedAt = new Map<string, number>();
  private readonly pendingEvents = new Map<string, { t: number[]; tok: number[] }>();
  private readonly batcher: StreamBatcher;

  constructor(
    private readonly runId: string,
    private readonly emit: (batch: RunLaneBatch) => void,
  ) {
    this.lanes = { runId, starts: [], events: [], done: [] };
    // Ten times a second for the whole run (lanes start, tick and end all along).
    this.batcher = new StreamBatcher(LANE_INTERVAL_MS, () => {
      this.flush();
      return true;
    });
    this.batcher.poke();
  }

  start(s: RunRequestStart): void {
    this.startedAt.set(s.id, s.startedMs);
    this.lanes.starts.push(s);
  }

  /** A request's new events (from `from` on), on the run clock. */
  events(id: string, rec: RequestRecord, from: number): void {
    const base = this.startedAt.get(id) ?? 0;
    let e = this.pendingEvents.get(id);
    if (!e) this.pendingEvents.set(id, (e = { t: [], tok: [] }));
    const ev = rec.events;
    for (let i = from; i < ev.n; i++) {
      e.t.push(Math.round((base + ev.t[i]!) * 1000) / 1000);
      e.tok.push(ev.tokens[i]!);
    }
  }

  done(line: RunRequestLine): void {
    this.startedAt.delete(line.id);
    this.lanes.done.push({
      id: line.id,
      ok: line.status === 'ok',
      endMs: Math.round((requestOriginMs(line) + (line.e2eMs ?? line.phases.endMs ?? 0)) * 1000) / 1000,
      ttftMs: line.ttftMs,
      errorKind: line.error?.kind ?? null,
      errorMessage: line.error?.message ?? null,
      outputTokens: line.outputTokens,
    });
  }

  /** The run ended: no more batches after the last one, sent now. */
  close(): void {
    this.batcher.dispose();
    this.flush();
  }

  private flush(): void {
    const { lanes, pendingEvents } = this;
    if (lanes.starts.length === 0 && pendingEvents.size === 0 && lanes.done.length === 0) return;
    lanes.events = [...pendingEvents].map(([id, e]) => ({ id, t: e.t, tok: e.tok }));
    pendingEvents.clear();
    this.emit(lanes);
    this.lanes = { runId: this.runId, starts: [], events: [], done: [] };
  }
}
