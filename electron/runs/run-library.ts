/**
 * The runs folder as a library: list it (run files and imported results, each by key), open a run,
 * rename, delete, export (vLLM JSON, CSV, the raw file), import vLLM/SGLang results (kept as their
 * original bytes under `imported/`, parsed once per file version), reveal a path.
 *
 * Runs are addressed by key (a file name in the folder), never by path: `resolveKey` refuses
 * anything that is not a plain name in the folder. No events: the owner says when the list changed.
 */
import { randomUUID } from 'node:crypto';
import { chmod, copyFile, mkdir, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import path from 'node:path';
import { toCsv } from '../../shared/runs/csv.ts';
import { slimResultBytes } from '../../shared/runs/result-slim.ts';
import { detectResultFormat, importSglangText } from '../../shared/runs/sglang-format.ts';
import {
  importVllmText,
  toVllmResult,
  type ImportedRun,
  type ImportResult,
} from '../../shared/runs/vllm-format.ts';
import type { RunDetail, RunEntry, RunExport, RunList } from '../../shared/runs-api.ts';
import {
  deleteRun as deleteRunFile,
  listRuns as listRunFiles,
  renameRun as renameRunFile,
  sidecarPath,
  type RunListEntry,
} from './history.ts';
import { readRunFile } from './run-file.ts';

export const IMPORTED_DIR = 'imported';
export class RunError extends Error {
  constructor(
    message: string,
    readonly kind: 'client' | 'busy' | 'not-found' | 'io' = 'client',
  ) {
    super(message);
  }
}

const safeName = /^[A-Za-z0-9._-]+$/;

function entryOfNative(e: RunListEntry, dir: string): RunEntry {
  return {
    key: path.relative(dir, e.path),
    runId: e.runId,
    name: e.name,
    startedAtWall: e.startedAtWall,
    model: e.model,
    url: e.url,
    dialect: e.dialect,
    source: 'tokenscope',
    imported: false,
    partial: e.partial,
    damage: e.damage,
    cancelled: e.cancelled,
    running: false,
    completed: e.completed,
    failed: e.failed,
    durationS: e.durationS,
    flagged: e.flagged,
    sizeBytes: e.sizeBytes,
    ...(e.repeat ? { repeat: e.repeat } : {}),
  };
}

/**
 * A result file's bytes → its runs, in bounded memory: the text Tokenscope never reads (generated
 * texts, prompts) is dropped before parsing (shared/runs/result-slim.ts).
 */
function importBytes(bytes: Uint8Array): ImportResult {
  return importText(slimResultBytes(bytes));
}

function importText(text: string): ImportResult {
  const f = detectResultFormat(text);
  if (f === 'tokenscope')
    return { ok: false, error: 'this is a Tokenscope run file, not a vLLM or SGLang result' };
  if (f === 'sglang') return importSglangText(text);
  if (f === 'vllm') return importVllmText(text);
  return { ok: false, error: 'not a vLLM or SGLang benchmark result (no "duration" key)' };
}

/** The name the user imported (the stored file's stamp prefix removed). */
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

/** The largest result file an import takes (real `--save-detailed` files are hundreds of MB). */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;

/** A run's name as a file name: letters, digits, `.`, `_` and `-` only; null when nothing is left. */
export function fileNameOf(name: string | null | undefined): string | null {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return slug || null;
}

export class RunLibrary {
  /** Imported files' runs by name, mtime and size: a listing does not re-read a 200 MB file. */
  private readonly importedCache = new Map<string, { stamp: string; result: ImportResult }>();
  private readonly runningKey: () => string | null;
  private readonly changed: () => void;
  private readonly revealer?: (p: string) => boolean;

  constructor(
    readonly dir: string,
    o: {
      /** The key of the run going on (it cannot be deleted; it is not partial). */
      runningKey?: () => string | null;
      /** The list changed (renamed, deleted, imported). */
      changed?: () => void;
      /** Show a path in the file manager (the app); absent: only say it. */
      reveal?: (p: string) => boolean;
    } = {},
  ) {
    this.runningKey = o.runningKey ?? (() => null);
    this.changed = o.changed ?? (() => undefined);
    this.revealer = o.reveal;
  }

  /** A key → a path inside the folder; anything else is refused. */
  resolveKey(key: string): { file: string; index: number | null; imported: boolean } {
    const m = /^(imported\/)?([^/#]+)(?:#(\d{1,4}))?$/.exec(key);
    if (!m || !safeName.test(m[2]!) || m[2] === '.' || m[2] === '..')
      throw new RunError(`not a run key: ${key}`);
    const imported = !!m[1];
    const file = imported ? path.join(this.dir, IMPORTED_DIR, m[2]!) : path.join(this.dir, m[2]!);
    if (!imported && m[3] !== undefined) throw new RunError(`not a run key: ${key}`);
    return { file, index: m[3] !== undefined ? Number(m[3]) : imported ? 0 : null, imported };
  }

  async list(): Promise<RunList> {
    const { runs, skipped } = await listRunFiles(this.dir);
    const out: RunEntry[] = runs.map((r) => entryOfNative(r, this.dir));
    const skippedOut = skipped.map((s) => ({ file: path.relative(this.dir, s.path), error: s.error }));
    const running = this.runningKey();
    if (running) {
      const e = out.find((r) => r.key === running);
      if (e) e.running = true;
    }
    const impDir = path.join(this.dir, IMPORTED_DIR);
    let names: string[] = [];
    try {
      names = (await readdir(impDir)).filter((n) => safeName.test(n) && !n.endsWith('.meta.json')).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    for (const n of names) {
      const file = path.join(impDir, n);
      try {
        const st = await stat(file);
        const r = await this.importedRuns(n, file, st);
        if (!r.ok) {
          skippedOut.push({ file: `${IMPORTED_DIR}/${n}`, error: r.error });
          continue;
        }
        const names = await this.sidecarNames(file);
        r.runs.forEach((run, i) =>
          out.push(
            importedEntry(`${IMPORTED_DIR}/${n}#${i}`, run, n, st.mtimeMs, st.size, names[String(i)] ?? null),
          ),
        );
      } catch (e) {
        skippedOut.push({ file: `${IMPORTED_DIR}/${n}`, error: (e as Error).message });
      }
    }
    out.sort((a, b) => b.startedAtWall - a.startedAtWall);
    return { runs: out, skipped: skippedOut, dir: this.dir };
  }

  private async sidecarNames(file: string): Promise<Record<string, string>> {
    try {
      const j = JSON.parse(await readFile(sidecarPath(file), 'utf8')) as { names?: Record<string, string> };
      return j.names && typeof j.names === 'object' ? j.names : {};
    } catch {
      return {};
    }
  }

  async open(key: string): Promise<RunDetail> {
    const { file, index, imported } = this.resolveKey(key);
    if (imported) {
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (e) {
        throw new RunError(
          `cannot read ${key}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
          'not-found',
        );
      }
      const r = importBytes(bytes);
      if (!r.ok) throw new RunError(r.error);
      const run = r.runs[index ?? 0];
      if (!run) throw new RunError(`${key}: the file has ${r.runs.length} result(s)`, 'not-found');
      const st = await stat(file);
      const names = await this.sidecarNames(file);
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
        problems: [...r.warnings, ...(run.summary.importInfo?.notes ?? [])],
      };
    }
    const r = await readRunFile(file);
    if (!r.ok) throw new RunError(r.error, /ENOENT/.test(r.error) ? 'not-found' : 'io');
    const { header, summary, partial, damage, requests, problems } = r.run;
    const st = await stat(file);
    let name = header.name;
    try {
      const j = JSON.parse(await readFile(sidecarPath(file), 'utf8')) as { name?: unknown };
      if (typeof j.name === 'string') name = j.name;
    } catch {
      // no rename sidecar
    }
    const running = this.runningKey() === key;
    return {
      entry: {
        key,
        runId: header.runId,
        name,
        startedAtWall: header.startedAtWall,
        model: header.target.model,
        url: header.target.url,
        dialect: header.target.dialect,
        source: 'tokenscope',
        imported: false,
        partial: partial && !running,
        damage,
        cancelled: summary.cancelled,
        running,
        completed: summary.vllm.completed,
        failed: summary.vllm.failed,
        durationS: summary.vllm.duration,
        flagged: summary.selfCheck?.flagged ?? false,
        sizeBytes: st.size,
      },
      header,
      summary,
      lines: requests,
      outcomes: null,
      problems,
    };
  }

  async rename(key: string, name: string): Promise<void> {
    const { file, index, imported } = this.resolveKey(key);
    if (imported) {
      await stat(file).catch(() => {
        throw new RunError(`no run ${key}`, 'not-found');
      });
      const names = await this.sidecarNames(file);
      names[String(index ?? 0)] = name.slice(0, 200);
      await writeFile(sidecarPath(file), JSON.stringify({ names }, null, 2) + '\n', { mode: 0o600 });
    } else {
      await renameRunFile(file, name).catch((e: NodeJS.ErrnoException) => {
        throw new RunError(
          e.code === 'ENOENT' ? `no run ${key}` : e.message,
          e.code === 'ENOENT' ? 'not-found' : 'io',
        );
      });
    }
    this.changed();
  }

  async delete(key: string): Promise<void> {
    if (this.runningKey() === key) throw new RunError('this run is going on: cancel it first', 'busy');
    const { file, imported } = this.resolveKey(key);
    if (imported) {
      // Deleting one result of a multi-result file deletes the file: it was imported as one.
      await rm(file).catch((e: NodeJS.ErrnoException) => {
        throw new RunError(
          e.code === 'ENOENT' ? `no run ${key}` : e.message,
          e.code === 'ENOENT' ? 'not-found' : 'io',
        );
      });
      await rm(sidecarPath(file), { force: true });
    } else {
      await deleteRunFile(file).catch((e: NodeJS.ErrnoException) => {
        throw new RunError(
          e.code === 'ENOENT' ? `no run ${key}` : e.message,
          e.code === 'ENOENT' ? 'not-found' : 'io',
        );
      });
    }
    this.changed();
  }

  async export(key: string, format: 'vllm' | 'vllm-detailed' | 'csv' | 'raw'): Promise<RunExport> {
    const { file, imported } = this.resolveKey(key);
    const fileBase = path.basename(file).replace(/\.(jsonl|json)$/, '');
    if (format === 'raw') {
      const content = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
        throw new RunError(`cannot read ${key}: ${e.code ?? e.message}`, 'not-found');
      });
      return {
        filename: path.basename(file),
        mime: imported ? 'application/json' : 'application/x-ndjson',
        content,
      };
    }
    if (imported) throw new RunError('an imported result exports only as its original file (raw)');
    const d = await this.open(key);
    if (!d.header || !d.lines) throw new RunError('nothing to export');
    // Named after the run ("e2e simulator run" → e2e-simulator-run.csv); its file's name without one.
    const base = fileNameOf(d.entry.name) ?? fileBase;
    if (format === 'csv') return { filename: `${base}.csv`, mime: 'text/csv', content: toCsv(d.lines) };
    const json = toVllmResult(d.header, d.lines, d.summary, { detailed: format === 'vllm-detailed' });
    return {
      filename: `${base}${format === 'vllm-detailed' ? '-detailed' : ''}.vllm.json`,
      mime: 'application/json',
      content: JSON.stringify(json),
    };
  }

  /** The runs of an imported file, parsed once per (name, mtime, size). */
  private async importedRuns(
    name: string,
    file: string,
    st: { mtimeMs: number; size: number },
  ): Promise<ImportResult> {
    const stamp = `${st.mtimeMs}:${st.size}`;
    const hit = this.importedCache.get(name);
    if (hit && hit.stamp === stamp) return hit.result;
    const result = importBytes(await readFile(file));
    return this.cacheImported(name, st, result);
  }

  private cacheImported(
    name: string,
    st: { mtimeMs: number; size: number },
    result: ImportResult,
  ): ImportResult {
    // Summaries only (outcomes are re-read when a run is opened): the cache stays small.
    const slim: ImportResult = result.ok
      ? { ...result, runs: result.runs.map((r) => ({ ...r, outcomes: null })) }
      : result;
    this.importedCache.set(name, { stamp: `${st.mtimeMs}:${st.size}`, result: slim });
    if (this.importedCache.size > 500) this.importedCache.delete(this.importedCache.keys().next().value!);
    return slim;
  }

  /** Import a result given as text (Electron hands the file's text over IPC). */
  async import(filename: string, content: string): Promise<{ keys: string[]; warnings: string[] }> {
    // importBytes compacts its bytes in place: it gets a copy, the file keeps the text as it came.
    return this.importChecked(filename, importBytes(Buffer.from(content, 'utf8')), (dest) =>
      writeFile(dest, content, { flag: 'wx', mode: 0o600 }),
    );
  }

  /**
   * Import a result file from disk (web mode's upload lands in a temp file): read once as bytes,
   * parsed without the text it never needs, copied as it is into the imported folder.
   */
  async importFile(filename: string, filePath: string): Promise<{ keys: string[]; warnings: string[] }> {
    let size: number;
    try {
      size = (await stat(filePath)).size;
    } catch (e) {
      throw new RunError(
        `${filename}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
    if (size > MAX_IMPORT_BYTES)
      throw new RunError(
        `${filename}: ${(size / 1024 ** 2).toFixed(0)} MB is more than an import may be (1 GiB)`,
      );
    const r = importBytes(await readFile(filePath));
    return this.importChecked(filename, r, async (dest) => {
      await copyFile(filePath, dest, fsConstants.COPYFILE_EXCL);
      await chmod(dest, 0o600);
    });
  }

  private async importChecked(
    filename: string,
    r: ImportResult,
    keep: (dest: string) => Promise<void>,
  ): Promise<{ keys: string[]; warnings: string[] }> {
    if (!r.ok) throw new RunError(`${filename}: ${r.error}`);
    if (r.runs.length === 0)
      throw new RunError(
        `${filename}: no result in the file${r.warnings.length ? ` (${r.warnings[0]})` : ''}`,
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
    this.cacheImported(name, st, r);
    this.changed();
    return { keys: r.runs.map((_, i) => `${IMPORTED_DIR}/${name}#${i}`), warnings: r.warnings };
  }

  async reveal(key?: string): Promise<{ path: string; revealed: boolean }> {
    const p = key ? this.resolveKey(key).file : this.dir;
    if (!key) await mkdir(this.dir, { recursive: true });
    else
      await stat(p).catch(() => {
        throw new RunError(`no run ${key}`, 'not-found');
      });
    const revealed = this.revealer ? this.revealer(p) : false;
    return { path: p, revealed };
  }
}
