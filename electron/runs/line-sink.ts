/**
 * Where a finished request's line goes once it is in the run file: into the summary's accumulator
 * (shared/runs/summary/run-accumulator.ts: its outcome's lists as Float64Arrays), the self-check's
 * stall log (content times), and nowhere else — so a run's live memory does not grow with the
 * lines' events (4,000 × 256 events as JS arrays held ~100 MB at the end of a run).
 *
 * Some facts about a line come only at the run's end and change its numbers: the server's
 * tokenizer counts (tokenize-outputs.ts) and the server's spans (server-spans.ts). From the first
 * line that waits for one (every line, with spans), lines are held and fed at the end, after those
 * facts are on them, in the same order — so the summary is the one `summarizeRunLines` gives for
 * the file's lines, to the last digit.
 */
import type { RunHeader, RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import { rederivedSummary, rederiveOptions } from '../../shared/runs/summary/rederive.ts';
import {
  LineValues,
  RunAccumulator,
  type SummarizeRunOptions,
} from '../../shared/runs/summary/run-accumulator.ts';
import type { RunSummary } from '../../shared/runs/summary/schema.ts';
import type { RequestStats } from '../../shared/stats/request-stats.ts';
import { contentTimes, StallLog } from '../../shared/runs/summary/stall-touches.ts';

export interface LineSinkOptions {
  /** Keep every line for the caller (RunOptions.keepLines). */
  keepLines?: boolean;
  /** Also summarize under this preset (RunOptions.alsoUnder). */
  alsoUnder?: DefinitionsId;
  /** Hold every line to the end (spans are joined then). */
  holdAll?: boolean;
}

export class LineSink {
  private readonly acc: RunAccumulator;
  private readonly also: RunAccumulator | null;
  private readonly alsoUnder: DefinitionsId | null;
  /** The self-check's stall count reads this (self-check.ts `stop`). */
  readonly stalls = new StallLog();
  private held: RunRequestLine[] | null;
  /** Every line, when the caller asked for them. */
  readonly kept: RunRequestLine[] | null;

  constructor(header: RunHeader, o: LineSinkOptions = {}) {
    this.acc = new RunAccumulator(header);
    this.alsoUnder = o.alsoUnder ?? null;
    this.also = o.alsoUnder ? new RunAccumulator(header, o.alsoUnder) : null;
    this.held = o.holdAll ? [] : null;
    this.kept = o.keepLines ? [] : null;
  }

  /**
   * A finished request's line; `waits`: an end-of-run fact will change it (held from here on);
   * `stats`: its stats as computed with the line (so not computed again; a held line's are).
   */
  add(line: RunRequestLine, waits = false, stats?: RequestStats): void {
    this.kept?.push(line);
    if (waits) this.held ??= [];
    if (this.held) {
      this.held.push(line);
      this.stalls.add(line);
      return;
    }
    const lv = this.feed(line, stats);
    this.stalls.add(line, lv.keep(contentTimes(line)));
  }

  /** The lines held for the end (all of them when spans are joined; [] when none). */
  get heldLines(): RunRequestLine[] {
    return this.held ?? [];
  }

  private feed(line: RunRequestLine, stats?: RequestStats): LineValues {
    const lv = new LineValues();
    this.acc.add(line, lv, stats);
    this.also?.add(line, lv, stats);
    return lv;
  }

  /** The run's summary: the held lines fed first (their end-of-run facts on them by now). */
  summary(o: SummarizeRunOptions): RunSummary {
    for (const l of this.held ?? []) this.feed(l);
    this.held = null;
    return this.acc.summary(o);
  }

  /** The summary under `alsoUnder`, as rederive.ts makes it from `stored` (call after `summary`). */
  rederived(stored: RunSummary): RunSummary | null {
    if (!this.also || !this.alsoUnder) return null;
    return rederivedSummary(this.also.summary(rederiveOptions(stored, this.alsoUnder)), stored);
  }
}
