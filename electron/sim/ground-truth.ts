/**
 * Ground truth: when each chunk's socket write was issued, by the sim's own monotonic clock. It
 * is what a client's arrival timestamps are compared against (client time - sim time = transport
 * + parsing delay), and what tests use to check timing without trusting the client under test.
 *
 * Kept in memory when enabled; with a path, also appended as JSONL (one GroundTruthRecord per
 * line), buffered and written at most every FLUSH_MS so the file costs no syscall per chunk.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { GroundTruthKind, GroundTruthRecord, SimPhases } from './types.ts';

const FLUSH_MS = 200;
const FLUSH_LINES = 512;

export class GroundTruthLog {
  private readonly records: GroundTruthRecord[] = [];
  private readonly phaseRecords: SimPhases[] = [];
  private readonly file: WriteStream | null;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  readonly enabled: boolean;

  constructor(
    setting: boolean | string,
    private readonly log: (line: string) => void,
  ) {
    this.enabled = setting !== false && setting !== '';
    this.file =
      typeof setting === 'string' && setting !== '' ? createWriteStream(setting, { flags: 'a' }) : null;
    this.file?.on('error', (err) => this.log(`sim: ground truth file: ${err.message}`));
  }

  record(
    requestId: string,
    index: number,
    tMs: number,
    tokens: number,
    bytes: number,
    kind: GroundTruthKind,
    arrivalMs?: number,
    answer: { reasoningTokens: number; firstAnswer: boolean } = { reasoningTokens: 0, firstAnswer: false },
  ): void {
    if (!this.enabled) return;
    const rec: GroundTruthRecord = {
      requestId,
      index,
      tMs,
      wallMs: performance.timeOrigin + tMs,
      tokens,
      bytes,
      kind,
      ...(arrivalMs !== undefined ? { arrivalMs } : {}),
      ...(answer.reasoningTokens > 0 ? { reasoningTokens: answer.reasoningTokens } : {}),
      ...(answer.firstAnswer ? { firstAnswer: true as const } : {}),
    };
    this.records.push(rec);
    if (!this.file) return;
    this.pending.push(JSON.stringify(rec));
    if (this.pending.length >= FLUSH_LINES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** A finished request's phases (kept in memory only). */
  phases(p: SimPhases): void {
    if (this.enabled) this.phaseRecords.push(p);
  }

  allPhases(): SimPhases[] {
    return this.phaseRecords.slice();
  }

  all(): GroundTruthRecord[] {
    return this.records.slice();
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.file || this.pending.length === 0) return;
    this.file.write(this.pending.join('\n') + '\n');
    this.pending = [];
  }

  async close(): Promise<void> {
    this.flush();
    const f = this.file;
    if (!f || f.closed) return;
    await new Promise<void>((resolve) => f.end(resolve));
  }
}
