/**
 * The runs folder as a library: list it (run files and imported results, each by key), open a run,
 * rename, delete, export (vLLM JSON, CSV, the raw file, an HTML report: report-file.ts), import vLLM/SGLang results (kept as their
 * original bytes under `imported/`, parsed once per file version: imported-runs.ts), reveal a path.
 *
 * Runs are addressed by key (a file name in the folder), never by path: `resolveKey` refuses
 * anything that is not a plain name in the folder (run-keys.ts). No events: the owner says when the
 * list changed.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RunDetail, RunEntry, RunExport, RunList } from '../../../shared/runs-api.ts';
import type { RunHeader } from '../../../shared/runs/file/line-schema.ts';
import {
  deleteRun as deleteRunFile,
  listRuns as listRunFiles,
  renameRun as renameRunFile,
  sidecarPath,
  type RunListEntry,
} from './history.ts';
import { ImportedRuns } from '../import/imported-runs.ts';
import { readRunFile } from './run-file.ts';
import { exportDetail } from '../export/run-export.ts';
import { makeReport } from '../export/report-file.ts';
import { detailColumns } from '../../../shared/report/report-data.ts';
import { MAX_COMPARED } from '../../../shared/runs/compare/compare.ts';
import type { DefinitionsId } from '../../../shared/runs/summary/definitions.ts';
import { resolveRunKey, RunError, runFileError } from './run-keys.ts';

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

/** A run going on whose file has no header yet (its warm-up): what the header says. */
function entryOfStarted(key: string, h: RunHeader): RunEntry {
  return {
    key,
    runId: h.runId,
    name: h.name,
    startedAtWall: h.startedAtWall,
    model: h.target.model,
    url: h.target.url,
    dialect: h.target.dialect,
    source: 'tokenscope',
    imported: false,
    partial: false,
    damage: null,
    cancelled: false,
    running: true,
    completed: 0,
    failed: 0,
    durationS: 0,
    flagged: false,
    sizeBytes: 0,
    ...(h.repeat ? { repeat: h.repeat } : {}),
  };
}

export class RunLibrary {
  private readonly imported: ImportedRuns;
  private readonly runningKey: () => string | null;
  private readonly runningHeader: () => RunHeader | null;
  private readonly changed: () => void;
  private readonly revealer?: (p: string) => boolean;

  constructor(
    readonly dir: string,
    o: {
      /** The key of the run going on (it cannot be deleted; it is not partial). */
      runningKey?: () => string | null;
      /**
       * That run's header once it started: its file gets the header only at the clock's zero
       * (after the warm-up), and until then the list shows the run from this.
       */
      runningHeader?: () => RunHeader | null;
      /** The list changed (renamed, deleted, imported). */
      changed?: () => void;
      /** Show a path in the file manager (the app); absent: only say it. */
      reveal?: (p: string) => boolean;
    } = {},
  ) {
    this.imported = new ImportedRuns(dir);
    this.runningKey = o.runningKey ?? (() => null);
    this.runningHeader = o.runningHeader ?? (() => null);
    this.changed = o.changed ?? (() => undefined);
    this.revealer = o.reveal;
  }

  /** A key → a path inside the folder; anything else is refused. */
  resolveKey(key: string): { file: string; index: number | null; imported: boolean } {
    return resolveRunKey(this.dir, key);
  }

  async list(): Promise<RunList> {
    const { runs, skipped } = await listRunFiles(this.dir);
    const out: RunEntry[] = runs.map((r) => entryOfNative(r, this.dir));
    const skippedOut = skipped.map((s) => ({ file: path.relative(this.dir, s.path), error: s.error }));
    const running = this.runningKey();
    if (running) {
      const e = out.find((r) => r.key === running);
      const header = e ? null : this.runningHeader();
      if (e) e.running = true;
      else if (header) out.push(entryOfStarted(running, header));
    }
    const imported = await this.imported.list();
    out.push(...imported.runs);
    skippedOut.push(...imported.skipped);
    out.sort((a, b) => b.startedAtWall - a.startedAtWall);
    return { runs: out, skipped: skippedOut, dir: this.dir };
  }

  async open(key: string): Promise<RunDetail> {
    const { file, index, imported } = this.resolveKey(key);
    if (imported) return this.imported.open(key, file, index);
    const r = await readRunFile(file);
    if (!r.ok) throw new RunError(r.error, /ENOENT/.test(r.error) ? 'not-found' : 'io');
    const { header, summary, partial, damage, requests, problems } = r.value;
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
      await this.imported.rename(key, file, index, name);
    } else {
      await renameRunFile(file, name).catch((e: NodeJS.ErrnoException) => {
        throw runFileError(key, e);
      });
    }
    this.changed();
  }

  async delete(key: string): Promise<void> {
    if (this.runningKey() === key) throw new RunError('this run is going on: cancel it first', 'busy');
    const { file, imported } = this.resolveKey(key);
    if (imported) {
      await this.imported.delete(key, file);
    } else {
      await deleteRunFile(file).catch((e: NodeJS.ErrnoException) => {
        throw runFileError(key, e);
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
    return exportDetail(await this.open(key), format, fileBase);
  }

  /**
   * One self-contained HTML report of these runs (several: their comparison too, repeats of one
   * workload pooled as the app's comparison pools them), under the definitions given.
   */
  async report(keys: readonly string[], definitions?: DefinitionsId): Promise<RunExport> {
    const details = await Promise.all(keys.map((k) => this.open(k)));
    const compare = details.length > 1 ? detailColumns(details) : null;
    if (typeof compare === 'string') throw new RunError(compare);
    if (compare && compare.length > MAX_COMPARED)
      throw new RunError(`a report compares at most ${MAX_COMPARED} runs (or groups of repeats)`);
    const r = await makeReport({ runs: details, compare, definitions });
    if (!r.ok) throw new RunError(r.error.message, r.error.kind === 'client' ? 'client' : 'io');
    const base =
      keys.length === 1
        ? path.basename(this.resolveKey(keys[0]!).file).replace(/\.(jsonl|json)$/, '')
        : 'comparison';
    return { filename: `${base}-report.html`, mime: 'text/html', content: r.value };
  }

  /** Import a result given as text (Electron hands the file's text over IPC). */
  async import(filename: string, content: string): Promise<{ keys: string[]; warnings: string[] }> {
    const r = await this.imported.fromText(filename, content);
    this.changed();
    return r;
  }

  /** Import a result file from disk (web mode's upload lands in a temp file), copied as it is. */
  async importFile(filename: string, filePath: string): Promise<{ keys: string[]; warnings: string[] }> {
    const r = await this.imported.fromFile(filename, filePath);
    this.changed();
    return r;
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
