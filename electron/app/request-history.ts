/**
 * The session's finished requests for the history view, newest first, bounded twice: at most
 * HISTORY_MAX entries and `maxBytes` (the engine configuration's historyMaxBytes) of their records' estimated footprint
 * (engine/record-limits.ts recordFootprintBytes). Entries alone did not bound memory: each record
 * may hold up to its limits (~390 MB at the defaults), and 27 flooded requests in the 50 entries
 * took web mode from 129 MB to 8.1 GB. The newest request is always kept, whatever its size (one
 * record is bounded by its limits), so a request just finished can still be opened.
 */
import type { RequestSnapshot, RequestSummary } from '../../shared/api.ts';
import { recordFootprintBytes } from '../engine/record-limits.ts';
import { DEFAULT_HISTORY_MAX_BYTES } from '../engine/engine-config.ts';

const HISTORY_MAX = 50;

export class RequestHistory {
  private readonly entries: { snap: RequestSnapshot; bytes: number }[] = [];
  private total = 0;

  constructor(
    private readonly maxEntries = HISTORY_MAX,
    private readonly maxBytes = DEFAULT_HISTORY_MAX_BYTES,
  ) {}

  /** Estimated bytes the kept records hold. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.length;
  }

  add(snap: RequestSnapshot): void {
    const bytes = recordFootprintBytes(snap.record);
    this.entries.unshift({ snap, bytes });
    this.total += bytes;
    while (this.entries.length > 1 && (this.entries.length > this.maxEntries || this.total > this.maxBytes)) {
      this.total -= this.entries.pop()!.bytes;
    }
  }

  get(id: string): RequestSnapshot | null {
    return this.entries.find((h) => h.snap.summary.id === id)?.snap ?? null;
  }

  summaries(): RequestSummary[] {
    return this.entries.map((h) => h.snap.summary);
  }
}
