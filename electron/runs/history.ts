/**
 * Run history: the run files in a folder. Listing reads each file's first line (header) and last
 * line (summary) only; a file without a summary is read whole and summarised as partial.
 * A rename is a sidecar `<file>.meta.json` ({"name": …}): the run file itself is never rewritten,
 * so what was recorded stays byte-for-byte as recorded.
 */
import { open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DialectId } from '../../shared/dialects.ts';
import type { RunRepeat, RunSummary } from '../../shared/runs/run-types.ts';
import { parseRunText } from '../../shared/runs/run-parse.ts';

export interface RunListEntry {
  path: string;
  runId: string;
  name: string | null;
  startedAtWall: number;
  model: string;
  url: string;
  dialect: DialectId;
  partial: boolean;
  /** Why the file's summary line was not trusted (recomputed from its request lines); null: sound. */
  damage: string | null;
  cancelled: boolean;
  completed: number;
  failed: number;
  durationS: number;
  /** The client self-check flagged the run's timing. */
  flagged: boolean;
  sizeBytes: number;
  /** One of N repeats of a workload (`run --repeat`, the form's Repeat): pooled when compared. */
  repeat?: RunRepeat;
}

const EDGE = 1 << 20;

async function headAndTail(file: string, size: number): Promise<{ first: string; last: string }> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, EDGE));
    await fh.read(head, 0, head.length, 0);
    const tailLen = Math.min(size, EDGE);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    const first = head.toString('utf8').split('\n')[0] ?? '';
    const lines = tail
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    return { first, last: lines[lines.length - 1] ?? '' };
  } finally {
    await fh.close();
  }
}

export function sidecarPath(file: string): string {
  return `${file}.meta.json`;
}

async function sidecarName(file: string): Promise<string | null> {
  try {
    const j = JSON.parse(await readFile(sidecarPath(file), 'utf8')) as { name?: unknown };
    return typeof j.name === 'string' ? j.name : null;
  } catch {
    return null; // no sidecar (or a broken one): the header's name stands
  }
}

async function entryOf(file: string): Promise<RunListEntry | null> {
  const size = (await stat(file)).size;
  // A run in its warm-up: the file exists, its header comes when the run clock starts.
  if (size === 0) return null;
  const { first, last } = await headAndTail(file, size);
  let text = first + '\n';
  let summaryLine: { type?: string; summary?: RunSummary } | null = null;
  try {
    summaryLine = JSON.parse(last) as { type?: string; summary?: RunSummary };
  } catch {
    summaryLine = null;
  }
  if (summaryLine?.type === 'summary') text += last + '\n';
  else text = await readFile(file, 'utf8'); // partial: recompute from every request line
  let r = parseRunText(text);
  if (!r.ok) throw new Error(r.error);
  // A damaged summary line is recomputed from the request lines, which only the whole file has.
  if (r.value.damage && summaryLine?.type === 'summary') {
    r = parseRunText(await readFile(file, 'utf8'));
    if (!r.ok) throw new Error(r.error);
  }
  const { header, summary, partial, damage } = r.value;
  return {
    path: file,
    runId: header.runId,
    name: (await sidecarName(file)) ?? header.name,
    startedAtWall: header.startedAtWall,
    model: header.target.model,
    url: header.target.url,
    dialect: header.target.dialect,
    partial,
    damage,
    cancelled: summary.cancelled,
    completed: summary.vllm.completed,
    failed: summary.vllm.failed,
    durationS: summary.vllm.duration,
    flagged: summary.selfCheck?.flagged ?? false,
    sizeBytes: size,
    ...(header.repeat ? { repeat: header.repeat } : {}),
  };
}

/** Run files in `dir`, newest first; files that are not run files are reported, not thrown. */
export async function listRuns(
  dir: string,
): Promise<{ runs: RunListEntry[]; skipped: { path: string; error: string }[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { runs: [], skipped: [] };
    throw e;
  }
  const runs: RunListEntry[] = [];
  const skipped: { path: string; error: string }[] = [];
  for (const n of names.filter((x) => x.endsWith('.jsonl')).sort()) {
    const file = path.join(dir, n);
    try {
      const e = await entryOf(file);
      if (e) runs.push(e);
    } catch (e) {
      skipped.push({ path: file, error: (e as Error).message });
    }
  }
  runs.sort((a, b) => b.startedAtWall - a.startedAtWall);
  return { runs, skipped };
}

export async function renameRun(file: string, name: string): Promise<void> {
  await stat(file); // the run must exist
  await writeFile(sidecarPath(file), JSON.stringify({ name: name.slice(0, 200) }, null, 2) + '\n');
}

export async function deleteRun(file: string): Promise<void> {
  await rm(file);
  await rm(sidecarPath(file), { force: true });
}
