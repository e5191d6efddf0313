/**
 * Load runs for the app: starts one run at a time through electron/runs/runner.ts, writes its run
 * file into the runs folder, and reports it to the UI (onRunStarted, onRunProgress every 250 ms,
 * onRunLanes ~10 times a second for the swimlane, onRunFinished). The folder's history — list,
 * open, rename, delete, export, import — is electron/runs/run-library.ts; this service says when
 * its list changed.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ApiEvent, ApiEvents } from '../../shared/api.ts';
import type { DialectId } from '../../shared/dialects.ts';
import { parseWorkload } from '../../shared/runs/workload.ts';
import type { RunDetail, RunExport, RunLaneBatch, RunList, StartRunInput } from '../../shared/runs-api.ts';
import { defaultRunFileName } from '../runs/run-file.ts';
import { runWorkload, TestRequestError } from '../runs/runner.ts';
import { PrepareError, prepareRun } from '../runs/prepare-run.ts';
import { StreamBatcher } from './stream-batcher.ts';
import { SELF_CHECK_THRESHOLDS } from '../runs/self-check.ts';
import { scrapeTargetOf } from './metrics-service.ts';
import type { ResolvedTarget } from './targets-service.ts';
import { RunError, RunLibrary } from '../runs/run-library.ts';

export {
  fileNameOf,
  IMPORTED_DIR,
  importedDisplayName,
  MAX_IMPORT_BYTES,
  RunError,
} from '../runs/run-library.ts';

/** Swimlane batches: at most this often (ms). */
export const LANE_INTERVAL_MS = 100;

type Emit = <E extends ApiEvent>(event: E, payload: ApiEvents[E]) => void;

/** The run going on. */
interface Active {
  runId: string;
  key: string;
  ac: AbortController;
  done: Promise<void>;
}

export class RunService {
  private active: Active | null = null;
  private disposed = false;
  /** The runs folder: history, imports, exports (electron/runs/run-library.ts). */
  readonly library: RunLibrary;

  constructor(
    readonly dir: string,
    private readonly emit: Emit,
    private readonly resolveTarget: (id: string) => ResolvedTarget | null,
    private readonly opts: {
      version: string;
      reveal?: (p: string) => boolean;
      progressIntervalMs?: number;
    } = { version: 'unknown' },
  ) {
    this.library = new RunLibrary(dir, {
      runningKey: () => this.active?.key ?? null,
      changed: () => void this.emitList(),
      reveal: opts.reveal,
    });
  }

  get running(): { runId: string; key: string } | null {
    return this.active ? { runId: this.active.runId, key: this.active.key } : null;
  }

  async start(input: StartRunInput): Promise<{ runId: string; key: string }> {
    if (this.active)
      throw new RunError(
        `a run is already going (${this.active.key}); cancel it or wait for it to finish`,
        'busy',
      );
    const t = this.resolveTarget(input.targetId);
    if (!t) throw new RunError(`No target ${input.targetId}.`, 'not-found');
    const { target: _ignored, ...raw } = input.workload;
    const parsed = parseWorkload(raw);
    if (!parsed.ok)
      throw new RunError(
        `bad workload: ${parsed.issues.map((i) => `${i.path || '(workload)'}: ${i.message}`).join('; ')}`,
      );
    const w = parsed.workload;
    const dialect: DialectId = input.dialect ?? t.dialect;
    let prepared;
    try {
      prepared = await prepareRun(
        w,
        {
          url: t.baseUrl,
          dialect,
          model: input.model ?? t.defaultModel,
          apiKey: t.apiKey,
          headers: t.headers,
          insecureTls: t.insecureTls,
        },
        this.dir,
      );
    } catch (e) {
      if (e instanceof PrepareError) throw new RunError(e.message);
      throw e;
    }
    const { model, prompts } = prepared;
    if (this.active) throw new RunError('a run started meanwhile', 'busy');
    const runId = randomUUID();
    const fileName = defaultRunFileName(Date.now(), runId).split('/').pop()!;
    const key = fileName;
    const ac = new AbortController();

    // Swimlane traffic, batched.
    let lanes: RunLaneBatch = { runId, starts: [], events: [], done: [] };
    const startedAt = new Map<string, number>();
    const pendingEvents = new Map<string, { t: number[]; tok: number[] }>();
    const flushLanes = (): void => {
      if (lanes.starts.length === 0 && pendingEvents.size === 0 && lanes.done.length === 0) return;
      lanes.events = [...pendingEvents].map(([id, e]) => ({ id, t: e.t, tok: e.tok }));
      pendingEvents.clear();
      this.emit('onRunLanes', lanes);
      lanes = { runId, starts: [], events: [], done: [] };
    };
    // Ten times a second for the whole run (lanes start, tick and end all along).
    const lanesBatcher = new StreamBatcher(LANE_INTERVAL_MS, () => {
      flushLanes();
      return true;
    });
    lanesBatcher.poke();

    const active: Active = { runId, key, ac, done: Promise.resolve() };
    this.active = active;
    let announced = false;
    active.done = (async () => {
      try {
        const result = await runWorkload({
          workload: w,
          target: {
            url: t.baseUrl,
            dialect,
            model,
            headers: t.headers,
            apiKey: t.apiKey,
            insecureTls: t.insecureTls,
          },
          prompts,
          runId,
          ...(input.repeat ? { repeat: input.repeat } : {}),
          serverMetrics: input.serverMetrics === false ? null : scrapeTargetOf(t),
          outFile: path.join(this.dir, fileName),
          name: input.name || w.name || null,
          signal: ac.signal,
          tokenscopeVersion: this.opts.version,
          progressIntervalMs: this.opts.progressIntervalMs,
          onProgress: (p) => {
            // Before the header: only the test request's "testing" ticks (the run may never start).
            if (!announced && p.phase !== 'test') return;
            this.emit('onRunProgress', p);
          },
          onRequestStart: (s) => {
            startedAt.set(s.id, s.startedMs);
            lanes.starts.push(s);
          },
          onRequestEvents: (id, rec, from) => {
            const base = startedAt.get(id) ?? 0;
            let e = pendingEvents.get(id);
            if (!e) pendingEvents.set(id, (e = { t: [], tok: [] }));
            const ev = rec.events;
            for (let i = from; i < ev.n; i++) {
              e.t.push(Math.round((base + ev.t[i]!) * 1000) / 1000);
              e.tok.push(ev.tokens[i]!);
            }
          },
          onRequestDone: (line) => {
            startedAt.delete(line.id);
            lanes.done.push({
              id: line.id,
              ok: line.status === 'ok',
              endMs: Math.round((line.startedMs + (line.e2eMs ?? line.phases.endMs ?? 0)) * 1000) / 1000,
              ttftMs: line.ttftMs,
              errorKind: line.error?.kind ?? null,
              errorMessage: line.error?.message ?? null,
              outputTokens: line.outputTokens,
            });
          },
          onStarted: (header) => {
            announced = true;
            this.emit('onRunStarted', {
              runId,
              key,
              header,
              selfCheckThresholds: { ...SELF_CHECK_THRESHOLDS },
            });
            void this.emitList();
          },
        });
        lanesBatcher.dispose();
        flushLanes();
        this.active = null;
        this.emit('onRunFinished', {
          runId,
          key,
          summary: result.summary,
          cancelled: result.cancelled,
          fileError: result.fileError,
          error: null,
        });
      } catch (e) {
        lanesBatcher.dispose();
        flushLanes();
        this.active = null;
        const summary = (await this.tryRead(key))?.summary ?? null;
        this.emit('onRunFinished', {
          runId,
          key,
          summary,
          cancelled: ac.signal.aborted,
          fileError: null,
          error: (e as Error).message,
          ...(e instanceof TestRequestError ? { testRequestFailed: true } : {}),
        });
      } finally {
        if (!this.disposed) void this.emitList();
      }
    })();
    return { runId, key };
  }

  cancel(runId: string): boolean {
    if (!this.active || (this.active.runId !== runId && this.active.key !== runId)) return false;
    this.active.ac.abort();
    return true;
  }

  /** Resolves when the current run (if any) has finished. */
  async idle(): Promise<void> {
    await this.active?.done;
  }

  private async emitList(): Promise<void> {
    try {
      this.emit('onRunsChanged', await this.list());
    } catch {
      // the folder could not be read: the next list() call reports it
    }
  }

  private async tryRead(key: string): Promise<RunDetail | null> {
    try {
      return await this.open(key);
    } catch {
      return null;
    }
  }

  /** A key → a path inside the folder; anything else is refused. */
  resolveKey(key: string): { file: string; index: number | null; imported: boolean } {
    return this.library.resolveKey(key);
  }

  list(): Promise<RunList> {
    return this.library.list();
  }

  open(key: string): Promise<RunDetail> {
    return this.library.open(key);
  }

  rename(key: string, name: string): Promise<void> {
    return this.library.rename(key, name);
  }

  delete(key: string): Promise<void> {
    return this.library.delete(key);
  }

  export(key: string, format: 'vllm' | 'vllm-detailed' | 'csv' | 'raw'): Promise<RunExport> {
    return this.library.export(key, format);
  }

  import(filename: string, content: string): Promise<{ keys: string[]; warnings: string[] }> {
    return this.library.import(filename, content);
  }

  importFile(filename: string, filePath: string): Promise<{ keys: string[]; warnings: string[] }> {
    return this.library.importFile(filename, filePath);
  }

  reveal(key?: string): Promise<{ path: string; revealed: boolean }> {
    return this.library.reveal(key);
  }

  /** Cancels a running run and waits for its file to be closed. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.active?.ac.abort();
    await this.active?.done;
  }
}
