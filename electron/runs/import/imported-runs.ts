/**
 * The runs folder's `imported/` part: vLLM/SGLang results kept as their original bytes, parsed
 * once per file version (name, mtime, size), listed and opened as runs, renamed through a sidecar
 * (`NAME.meta.json`), deleted, and stored by a new import. run-library.ts hands imported keys here.
 */
import { randomUUID } from 'node:crypto';
import { chmod, copyFile, mkdir, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import { ok, errorMessage } from '../../../shared/result.ts';
import path from 'node:path';
import type { ImportedRun, ImportResult } from '../../../shared/runs/import/vllm-format.ts';
import { importBytes } from './parse.ts';
import { importOffThread } from './thread.ts';
import type { RunDetail, RunEntry, RunList } from '../../../shared/runs-api.ts';
import { sidecarPath } from '../files/history.ts';
import { IMPORTED_DIR, RunError, runFileError, SAFE_NAME } from '../files/run-keys.ts';

/** The largest result file an import takes (real `--save-detailed` files are hundreds of MB). */
const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;

/** The name the user imported (the stored file's stamp prefix removed). @internal exported for its tests */
export function importedDisplayName(fileName: string): string {
  return fileName.replace(/^\d{8}-\d{6}-[0-9a-f]{6}-/, '');
}

function importedEntry(
  key: string,
  r: ImportedRun,
  fileName: string,
  mtime: number,
  size: number,
  name: string | null,
): RunEntry {
  const parsedDate = r.date
    ? Date.parse(r.date.replace(/^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3T$4:$5:$6'))
    : NaN;
  return {
    key,
    runId: key,
    name: name ?? r.label ?? importedDisplayName(fileName),
    startedAtWall: Number.isFinite(parsedDate) ? parsedDate : mtime,
    model: r.model ?? '',
    url: '',
    dialect: '',
    source: r.format,
    imported: true,
    partial: false,
    cancelled: false,
    running: false,
    completed: r.summary.vllm.completed,
    failed: r.summary.vllm.failed,
    durationS: r.summary.vllm.duration,
    flagged: false,
    sizeBytes: size,
  };
}

/** The names given to an imported file's results (by index), from its sidecar. */
async function sidecarNames(file: string): Promise<Record<string, string>> {
  try {
    const j = JSON.parse(await readFile(sidecarPath(file), 'utf8')) as { names?: Record<string, string> };
    return j.names && typeof j.names === 'object' ? j.names : {};
  } catch {
    return {};
  }
}

export class ImportedRuns {
  /** Imported files' runs by name, mtime and size: a listing does not re-read a 200 MB file. */
  private readonly cache = new Map<string, { stamp: string; result: ImportResult }>();

  /** `dir`: the runs folder (imports live in its `imported/`). */
  constructor(private readonly dir: string) {}

  /** Every imported file's runs as entries; a file that does not parse is skipped with its error. */
  async list(): Promise<Pick<RunList, 'runs' | 'skipped'>> {
    const runs: RunEntry[] = [];
    const skipped: RunList['skipped'] = [];
    const impDir = path.join(this.dir, IMPORTED_DIR);
    let names: string[] = [];
    try {
      names = (await readdir(impDir)).filter((n) => SAFE_NAME.test(n) && !n.endsWith('.meta.json')).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    for (const n of names) {
      const file = path.join(impDir, n);
      try {
        const st = await stat(file);
        const r = await this.runsOf(n, file, st);
        if (!r.ok) {
          skipped.push({ file: `${IMPORTED_DIR}/${n}`, error: r.error });
          continue;
        }
        const names = await sidecarNames(file);
        r.value.runs.forEach((run, i) =>
          runs.push(
            importedEntry(`${IMPORTED_DIR}/${n}#${i}`, run, n, st.mtimeMs, st.size, names[String(i)] ?? null),
          ),
        );
      } catch (e) {
        skipped.push({ file: `${IMPORTED_DIR}/${n}`, error: errorMessage(e) });
      }
    }
    return { runs, skipped };
  }

  /** The `index`-th result of the imported `file` (key `key`), read afresh with its outcomes. */
  async open(key: string, file: string, index: number | null): Promise<RunDetail> {
    let r: ImportResult;
    try {
      r = await importOffThread({ file, outcomes: true });
    } catch (e) {
      throw new RunError(
        `cannot read ${key}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`,
        'not-found',
      );
    }
    if (!r.ok) throw new RunError(r.error);
    const run = r.value.runs[index ?? 0];
    if (!run) throw new RunError(`${key}: the file has ${r.value.runs.length} result(s)`, 'not-found');
    const st = await stat(file);
    const names = await sidecarNames(file);
    return {
      entry: importedEntry(
        key,
        run,
        path.basename(file),
        st.mtimeMs,
        st.size,
        names[String(index ?? 0)] ?? null,
      ),
      header: null,
      summary: run.summary,
      lines: null,
      outcomes: run.outcomes,
      problems: [...r.value.warnings, ...(run.summary.importInfo?.notes ?? [])],
    };
  }

  /** Names one result of an imported file (in its sidecar; the file stays as it came). */
  async rename(key: string, file: string, index: number | null, name: string): Promise<void> {
    await stat(file).catch(() => {
      throw new RunError(`no run ${key}`, 'not-found');
    });
    const names = await sidecarNames(file);
    names[String(index ?? 0)] = name.slice(0, 200);
    await writeFile(sidecarPath(file), JSON.stringify({ names }, null, 2) + '\n', { mode: 0o600 });
  }

  async delete(key: string, file: string): Promise<void> {
    // Deleting one result of a multi-result file deletes the file: it was imported as one.
    await rm(file).catch((e: NodeJS.ErrnoException) => {
      throw runFileError(key, e);
    });
    await rm(sidecarPath(file), { force: true });
  }

  /** Import a result given as text (Electron hands the file's text over IPC). */
  async fromText(filename: string, content: string): Promise<{ keys: string[]; warnings: string[] }> {
    // importBytes compacts its bytes in place: it gets a copy, the file keeps the text as it came.
    return this.store(filename, importBytes(Buffer.from(content, 'utf8')), (dest) =>
      writeFile(dest, content, { flag: 'wx', mode: 0o600 }),
    );
  }

  /**
   * Import a result file from disk (web mode's upload lands in a temp file): read once as bytes,
   * parsed without the text it never needs, copied as it is into the imported folder.
   */
  async fromFile(filename: string, filePath: string): Promise<{ keys: string[]; warnings: string[] }> {
    let size: number;
    try {
      size = (await stat(filePath)).size;
    } catch (e) {
      throw new RunError(
        `${filename}: cannot read it (${(e as NodeJS.ErrnoException).code ?? errorMessage(e)})`,
      );
    }
    if (size > MAX_IMPORT_BYTES)
      throw new RunError(
        `${filename}: ${(size / 1024 ** 2).toFixed(0)} MB is more than an import may be (1 GiB)`,
      );
    const r = await importOffThread({ file: filePath, outcomes: false });
    return this.store(filename, r, async (dest) => {
      await copyFile(filePath, dest, fsConstants.COPYFILE_EXCL);
      await chmod(dest, 0o600);
    });
  }

  /** The runs of an imported file, parsed once per (name, mtime, size). */
  private async runsOf(
    name: string,
    file: string,
    st: { mtimeMs: number; size: number },
  ): Promise<ImportResult> {
    const stamp = `${st.mtimeMs}:${st.size}`;
    const hit = this.cache.get(name);
    if (hit && hit.stamp === stamp) return hit.result;
    const result = await importOffThread({ file, outcomes: false });
    return this.remember(name, st, result);
  }

  private remember(name: string, st: { mtimeMs: number; size: number }, result: ImportResult): ImportResult {
    // Summaries only (outcomes are re-read when a run is opened): the cache stays small.
    const slim: ImportResult = result.ok
      ? ok({ ...result.value, runs: result.value.runs.map((r) => ({ ...r, outcomes: null })) })
      : result;
    this.cache.set(name, { stamp: `${st.mtimeMs}:${st.size}`, result: slim });
    if (this.cache.size > 500) this.cache.delete(this.cache.keys().next().value!);
    return slim;
  }

  /** A parsed result with at least one run, kept under a fresh stamped name by `keep`. */
  private async store(
    filename: string,
    r: ImportResult,
    keep: (dest: string) => Promise<void>,
  ): Promise<{ keys: string[]; warnings: string[] }> {
    if (!r.ok) throw new RunError(`${filename}: ${r.error}`);
    if (r.value.runs.length === 0)
      throw new RunError(
        `${filename}: no result in the file${r.value.warnings.length ? ` (${r.value.warnings[0]})` : ''}`,
      );
    const dir = path.join(this.dir, IMPORTED_DIR);
    await mkdir(dir, { recursive: true });
    const stem = (
      path
        .basename(filename)
        .replace(/[^A-Za-z0-9._-]+/g, '_')
        .replace(/^[._]+/, '') || 'result'
    ).slice(0, 120);
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
    const name = `${stamp}-${randomUUID().slice(0, 6)}-${stem}`;
    const dest = path.join(dir, name);
    try {
      await keep(dest);
    } catch (e) {
      await unlink(dest).catch(() => undefined);
      throw e;
    }
    // The listing that follows must not parse the file a second time.
    const st = await stat(dest);
    this.remember(name, st, r);
    return { keys: r.value.runs.map((_, i) => `${IMPORTED_DIR}/${name}#${i}`), warnings: r.value.warnings };
  }
}
