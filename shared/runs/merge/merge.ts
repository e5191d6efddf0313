/**
 * `tokenscope merge`: the run files of a workload's shards (`run --shard I/N`) as one run. Pure:
 * the CLI reads and writes the files.
 *
 * Checked (a failure is an error, no file): every file is a shard of the same N, the same workload
 * (hash) and the same --start-at, and every index 0…N−1 is there exactly once; every request line
 * of a file is its header's shard's (index mod N: a header put over another shard's lines would
 * count requests twice); the clocks are plausible — --start-at a real instant, and each shard's run
 * clock started at it (its clockZeroWall + offset within MAX_START_SKEW_MS: a shard more than
 * START_AT_TOLERANCE_MS late does not run at all, so one that says it started days late did not
 * run this schedule). Flagged (in the
 * merged header's `merged.shards[].flags` and on stderr): a shard whose self-check failed, that was
 * cancelled or cut short (partial), whose clock offset was not measured, or whose offset or its
 * uncertainty exceeds the bound (default 5 ms).
 *
 * Alignment: the merged run clock's zero is --start-at on the reference clock (the server's Date),
 * and the header's clockZeroWall is that instant. A shard's zero on the reference clock is its
 * clockZeroWall + its offset; the difference to --start-at (shiftMs; 0 for a shard that started on
 * time, by construction — the runner's zero is the planned instant, not its wake-up) is added to
 * its lines' run-clock times (arrivedMs, startedMs, sentMs). Everything else of a line — its plan
 * (scheduledMs), queue time, events, tokens, errors — is copied as it is, plus `shard`. Warm-up
 * lines keep their own clocks. Lines are ordered warm-up first, then by request index. The summary
 * is computed from the merged lines by the summarizer every run uses (its duration: the merged
 * zero to the last request's end); nothing is averaged.
 */
import { fail, ok, type Result } from '../../result.ts';
import type { ParsedRun } from '../run-file/parse.ts';
import { ms3 } from '../file/record-line.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import type { RunSummary } from '../summary/schema.ts';
import { START_AT_TOLERANCE_MS } from '../shard/shard.ts';
import type { MergedShard, RunShardInfo } from '../shard/schema.ts';
import { summarizeRunLines } from '../summary/summarize-run.ts';

export interface ShardFile {
  /** Its name, for messages and the merged header. */
  file: string;
  run: ParsedRun;
}

export interface MergeOptions {
  clockBoundMs: number;
  runId: string;
}

export interface MergedRun {
  header: RunHeader;
  lines: RunRequestLine[];
  summary: RunSummary;
  /** "shard 2 (b.jsonl): …", one per flag. */
  warnings: string[];
}

/**
 * How far a shard's run-clock zero (on the reference clock) may be from --start-at: by construction
 * it is --start-at (the runner refuses to start later than START_AT_TOLERANCE_MS); the rest is room
 * for rounding and a re-measured offset.
 */
const MAX_START_SKEW_MS = 4 * START_AT_TOLERANCE_MS;
/** Wall times a Date can hold (±8.64e15 ms); a --start-at outside 1970…that bound is no instant. */
const MAX_WALL_MS = 8.64e15;

/** A shard's zero on the reference clock minus --start-at, ms (0 without clockZeroWall). */
function startSkew(f: ShardFile, startAt: number): number {
  const h = f.run.header;
  return h.clockZeroWall === undefined ? 0 : h.clockZeroWall + (h.shard!.clock.offsetMs ?? 0) - startAt;
}

/** Lines that are not the file's shard's, and clocks that cannot be this run's. */
function checkContents(files: readonly ShardFile[]): string[] {
  const errors: string[] = [];
  for (const f of files) {
    const { index, of, startAt } = f.run.header.shard!;
    const foreign = f.run.requests.filter((l) => l.seq % of !== index);
    if (foreign.length > 0) {
      const l = foreign[0]!;
      errors.push(
        `${f.file}: ${foreign.length} of its ${f.run.requests.length} request lines are not shard ${index}'s (request ${l.seq}${l.warmup ? ' (warm-up)' : ''} is shard ${l.seq % of}'s): its header is not its lines'`,
      );
    }
    if (!(startAt > 0 && startAt < MAX_WALL_MS))
      errors.push(`${f.file}: --start-at ${startAt} is not an instant`);
    else {
      const skew = startSkew(f, startAt);
      if (!(Math.abs(skew) <= MAX_START_SKEW_MS))
        errors.push(
          `${f.file}: its run clock started ${fmtSkew(skew)} ${skew < 0 ? 'before' : 'after'} --start-at (at most ${MAX_START_SKEW_MS} ms is possible): not this run's schedule`,
        );
    }
  }
  return errors;
}

function fmtSkew(ms: number): string {
  const a = Math.abs(ms);
  if (!Number.isFinite(a) || a > 1e15) return `${a.toExponential(3)} ms`;
  return a >= 86_400_000 ? `${(a / 86_400_000).toFixed(1)} days` : `${(a / 1000).toFixed(3)} s`;
}

/** Why the files do not make one run, each reason on its own. */
function checkShards(files: readonly ShardFile[]): string[] {
  const errors: string[] = [];
  if (files.length === 0) return ['no shard files given'];
  const noShard = files.filter((f) => !f.run.header.shard);
  for (const f of noShard) errors.push(`${f.file}: not a shard's run file (no "shard" in its header)`);
  if (noShard.length) return errors;
  const info = (f: ShardFile): RunShardInfo => f.run.header.shard!;
  const first = files[0]!;
  for (const f of files.slice(1)) {
    if (info(f).of !== info(first).of)
      errors.push(`${f.file} is one of ${info(f).of} shards, ${first.file} one of ${info(first).of}`);
    if (info(f).workloadHash !== info(first).workloadHash)
      errors.push(
        `${f.file} ran another workload than ${first.file} (${info(f).workloadHash} ≠ ${info(first).workloadHash})`,
      );
    if (info(f).startAt !== info(first).startAt)
      errors.push(
        `${f.file} started at ${new Date(info(f).startAt).toISOString()}, ${first.file} at ${new Date(info(first).startAt).toISOString()}: not one run`,
      );
  }
  const n = info(first).of;
  const byIndex = new Map<number, string[]>();
  for (const f of files) byIndex.set(info(f).index, [...(byIndex.get(info(f).index) ?? []), f.file]);
  for (const [i, names] of [...byIndex].sort((a, b) => a[0] - b[0]))
    if (names.length > 1) errors.push(`shard ${i} given ${names.length} times: ${names.join(', ')}`);
  const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length && files.every((f) => info(f).of === n))
    errors.push(`missing shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${n}`);
  errors.push(...checkContents(files));
  return errors;
}

/** What is wrong with one shard's measuring (empty: nothing). */
function shardFlags(f: ShardFile, boundMs: number): string[] {
  const { run } = f;
  const c = run.header.shard!.clock;
  const flags: string[] = [];
  const sc = run.summary.selfCheck;
  if (sc?.flagged) flags.push(`self-check failed: ${sc.reasons.join('; ')}`);
  if (run.partial) flags.push('its run file has no summary (the process stopped before the end)');
  if (run.damage) flags.push(`its file is damaged: ${run.damage}`);
  if (run.summary.cancelled) flags.push('it was cancelled');
  if (c.offsetMs === null || c.uncertaintyMs === null)
    flags.push(`clock offset not measured (${c.note ?? 'no Date'}): aligned by its own clock`);
  else {
    if (c.uncertaintyMs > boundMs)
      flags.push(`clock offset uncertain: ± ${c.uncertaintyMs.toFixed(3)} ms > ${boundMs} ms`);
    if (Math.abs(c.offsetMs) > boundMs)
      flags.push(`clock off by ${c.offsetMs.toFixed(3)} ms > ${boundMs} ms (corrected at the start)`);
  }
  if (run.header.clockZeroWall === undefined) flags.push('no clockZeroWall in its header: not aligned');
  return flags;
}

/** The shards as one run, or every reason they are not one. */
export function mergeShards(files: readonly ShardFile[], o: MergeOptions): Result<MergedRun, string[]> {
  const errors = checkShards(files);
  if (errors.length) return fail(errors);
  const sorted = [...files].sort((a, b) => a.run.header.shard!.index - b.run.header.shard!.index);
  const first = sorted[0]!.run;
  const { startAt, of, workloadHash } = first.header.shard!;
  const warmup: RunRequestLine[] = [];
  const measured: RunRequestLine[] = [];
  const shards: MergedShard[] = [];
  const warnings: string[] = [];
  for (const f of sorted) {
    const h = f.run.header;
    const s = h.shard!;
    const raw = startSkew(f, startAt);
    const shiftMs = Math.abs(raw) < 0.0005 ? 0 : ms3(raw);
    for (const l of f.run.requests) {
      if (l.warmup) warmup.push({ ...l, shard: s.index });
      else measured.push(shiftLine(l, shiftMs, s.index));
    }
    const flags = shardFlags(f, o.clockBoundMs);
    for (const fl of flags) warnings.push(`shard ${s.index} (${f.file}): ${fl}`);
    shards.push({
      index: s.index,
      runId: h.runId,
      file: f.file,
      clock: s.clock,
      shiftMs,
      requests: f.run.requests.filter((l) => !l.warmup).length,
      warmupRequests: f.run.requests.filter((l) => l.warmup).length,
      partial: f.run.partial,
      selfCheckFlagged: f.run.summary.selfCheck?.flagged ?? false,
      flags,
    });
  }
  warmup.sort((a, b) => a.seq - b.seq);
  measured.sort((a, b) => a.seq - b.seq);
  const lines = [...warmup, ...measured];
  const { shard: _shard, ...h0 } = first.header;
  const startedAtWall = Math.min(...sorted.map((f) => f.run.header.startedAtWall));
  const header: RunHeader = {
    ...h0,
    runId: o.runId,
    startedAtWall,
    startedAt: new Date(startedAtWall).toISOString(),
    clockZeroWall: startAt,
    merged: {
      of,
      workloadHash,
      startAt,
      clockBoundMs: o.clockBoundMs,
      shards,
      flagged: shards.some((s) => s.flags.length > 0),
    },
  };
  const summary = summarizeMerged(header, lines, sorted);
  return ok({ header, lines, summary, warnings });
}

/** The merged summary: the summarizer over the merged lines; the server side from shard 0's watch. */
function summarizeMerged(
  header: RunHeader,
  lines: readonly RunRequestLine[],
  shards: readonly ShardFile[],
): RunSummary {
  const summary = summarizeRunLines(header, lines, {
    cancelled: shards.some((f) => f.run.summary.cancelled),
    partial: shards.some((f) => f.run.partial),
  });
  // Every shard watched the same server's /metrics over the same time: the first one's is kept.
  const server = shards.find((f) => f.run.summary.server)?.run.summary.server;
  if (server) summary.server = server;
  return summary;
}

function shiftLine(l: RunRequestLine, shiftMs: number, shard: number): RunRequestLine {
  if (shiftMs === 0) return { ...l, shard };
  return {
    ...l,
    arrivedMs: ms3(l.arrivedMs + shiftMs),
    startedMs: ms3(l.startedMs + shiftMs),
    ...(l.sentMs !== undefined ? { sentMs: ms3(l.sentMs + shiftMs) } : {}),
    shard,
  };
}
