/**
 * `tokenscope merge SHARD… -o RUN` — the run files of a workload's shards (`run --shard I/N` on
 * several machines) as one run file: checked, aligned, the summary computed from the merged lines
 * (shared/runs/merge/merge.ts says how). Prints the summary like `run`; flags go to stderr.
 *
 * Exit codes: 0 merged · 1 merged, but a shard was flagged and --strict was given, or the file could
 * not be written · 2 the files are not one run (workload, N or start differ; a shard missing or
 * twice), or unreadable.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { mergeShards, type ShardFile } from '../../shared/runs/merge/merge.ts';
import { DEFAULT_CLOCK_BOUND_MS } from '../../shared/runs/shard/shard.ts';
import { summaryJson } from '../../shared/runs/summary/json.ts';
import { summaryText } from '../../shared/runs/summary/text.ts';
import { readRunFile, RunFileWriter } from '../runs/files/run-file.ts';
import { errorMessage } from '../../shared/result.ts';

export interface MergeCliOptions {
  out: string;
  /** Flag a shard whose clock offset or its uncertainty exceeds this (ms). */
  clockBound?: number;
  strict?: boolean;
  json?: boolean;
  quiet?: boolean;
}

export async function runMerge(files: readonly string[], o: MergeCliOptions): Promise<number> {
  const bad = (msg: string, code = 2): number => {
    if (o.json) process.stdout.write(JSON.stringify({ error: msg }) + '\n');
    else process.stderr.write(`error: ${msg}\n`);
    return code;
  };
  const bound = o.clockBound ?? DEFAULT_CLOCK_BOUND_MS;
  if (!(Number.isFinite(bound) && bound >= 0)) return bad('--clock-bound must be a number of ms ≥ 0');
  const shards: ShardFile[] = [];
  for (const f of files) {
    const r = await readRunFile(f);
    if (!r.ok) return bad(r.error);
    shards.push({ file: path.basename(f), run: r.value });
  }
  const m = mergeShards(shards, { clockBoundMs: bound, runId: randomUUID() });
  if (!m.ok) return bad(`these files are not the shards of one run:\n  ${m.error.join('\n  ')}`);
  const { header, lines, summary, warnings } = m.value;
  try {
    const w = await RunFileWriter.create(o.out, header);
    for (const l of lines) w.append(l);
    await w.finish(summary);
  } catch (e) {
    return bad(`could not write ${o.out}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`, 1);
  }
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  if (o.json)
    process.stdout.write(
      JSON.stringify({
        ...summaryJson(summary, { run_file: o.out, run_id: header.runId }),
        merged: header.merged,
      }) + '\n',
    );
  else if (!o.quiet)
    process.stdout.write(
      `Merged ${header.merged!.of} shards (${lines.filter((l) => !l.warmup).length} requests)\n` +
        summaryText(summary) +
        `Run file: ${o.out}\n`,
    );
  return o.strict && header.merged!.flagged ? 1 : 0;
}
