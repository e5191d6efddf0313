/**
 * Run history: the run files in a folder. Listing reads each file's first line (header) and last
 * line (summary) only; a file without a summary is read whole (streamed, run-file.ts) and
 * summarised as partial. What a file gave — its entry or why it is not a run — is kept by path,
 * size and modification time, so an unchanged file is never read again on a later listing (a
 * damaged or huge partial file costs its reading once, not on every listing).
 * A rename is a sidecar `<file>.meta.json` ({"name": …}): the run file itself is never rewritten,
 * so what was recorded stays byte-for-byte as recorded.
 */
import { open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DialectId } from '../../../shared/dialects.ts';
import type { RunRepeat } from '../../../shared/runs/file/line-schema.ts';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { parseRunText } from '../../../shared/runs/run-file/parse.ts';
import { readRunFile } from './run-file.ts';
import { errorMessage } from '../../../shared/result.ts';

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

/** What reading a file gave: its entry (null: empty), or why it is not a run; without its name. */
type Indexed = { entry: RunListEntry | null } | { error: string };

/** Files read, by path: reused while the size and modification time are the same. */
const index = new Map<string, { size: number; mtimeMs: number; got: Indexed }>();
/** How many files listings have read (tests: an unchanged file is not read again). @internal exported for its tests */
export const indexStats = { reads: 0 };

async function indexed(file: string): Promise<Indexed> {
  const st = await stat(file);
  const known = index.get(file);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return known.got;
  indexStats.reads++;
  let got: Indexed;
  try {
    got = { entry: await entryOf(file, st.size) };
  } catch (e) {
    got = { error: errorMessage(e) };
  }
  index.set(file, { size: st.size, mtimeMs: st.mtimeMs, got });
  return got;
}

async function entryOf(file: string, size: number): Promise<RunListEntry | null> {
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
  text += last + '\n';
  let r = summaryLine?.type === 'summary' ? parseRunText(text) : await readRunFile(file);
  if (!r.ok) throw new Error(r.error);
  // A damaged summary line is recomputed from the request lines, which only the whole file has.
  if (r.value.damage && summaryLine?.type === 'summary') {
    r = await readRunFile(file);
    if (!r.ok) throw new Error(r.error);
  }
  const { header, summary, partial, damage } = r.value;
  return {
    path: file,
    runId: header.runId,
    name: header.name,
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
    let got: Indexed;
    try {
      got = await indexed(file);
    } catch (e) {
      got = { error: errorMessage(e) }; // gone between readdir and stat
    }
    if ('error' in got) skipped.push({ path: file, error: got.error });
    else if (got.entry) runs.push({ ...got.entry, name: (await sidecarName(file)) ?? got.entry.name });
  }
  // Files gone from the folder leave the index.
  const here = new Set(names.map((n) => path.join(dir, n)));
  for (const p of index.keys()) if (path.dirname(p) === dir && !here.has(p)) index.delete(p);
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
