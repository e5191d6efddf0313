/**
 * Load runs for the app: starts one run at a time through electron/runs/runner.ts, writes its run
 * file into the runs folder, and reports it to the UI (onRunStarted, onRunProgress every 250 ms,
 * onRunLanes ~10 times a second for the swimlane, onRunFinished). The folder's history — list,
 * open, rename, delete, export, import — is electron/runs/files/run-library.ts; this service says when
 * its list changed.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DialectId } from '../../shared/dialects.ts';
import type { DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import { parseWorkload, type Workload } from '../../shared/runs/workload/workload.ts';
import type { RunDetail, RunExport, RunList, StartRunInput } from '../../shared/runs-api.ts';
import { defaultRunFileName } from '../runs/files/run-file.ts';
import { runWorkload, TestRequestError, type RunOptions } from '../runs/runner.ts';
import { PrepareError, prepareRun } from '../runs/prepare-run.ts';
import type { PromptProvider } from '../runs/prompts/items.ts';
import { RunLanes } from './run-lanes.ts';
import { exportRunOtlp, type OtlpExported } from '../runs/export/otlp-export.ts';
import { openSpanReceiver, type SpanReceiver } from '../runs/server-spans.ts';
import { SELF_CHECK_THRESHOLDS } from '../runs/self-check.ts';
import { scrapeTargetOf } from './metrics-service.ts';
import type { ResolvedTarget } from './targets-service.ts';
import { RunLibrary } from '../runs/files/run-library.ts';
import { RunError } from '../runs/files/run-keys.ts';
import type { Emit } from './emit.ts';
import type { RunHeader } from '../../shared/runs/file/line-schema.ts';
import { errorMessage } from '../../shared/result.ts';

export { RunError } from '../runs/files/run-keys.ts';

/** The run going on. */
interface Active {
  runId: string;
  key: string;
  ac: AbortController;
  done: Promise<void>;
  /** Its header, once the test request passed (onStarted). */
  header?: RunHeader;
}

/** A run the form asked for, checked and resolved (RunService.prepare). */
export interface Prepared {
  t: ResolvedTarget;
  w: Workload;
  dialect: DialectId;
  model: string;
  prompts: PromptProvider;
}

/** A run about to go: what it runs, who it is, how it is cancelled, where its lanes go. */
interface Launch extends Prepared {
  input: StartRunInput;
  runId: string;
  key: string;
  fileName: string;
  ac: AbortController;
  lanes: RunLanes;
  /** The run's trace receiver (the form's otlpListen), closed when the run ends. */
  spans: SpanReceiver | null;
}

export class RunService {
  private active: Active | null = null;
  private disposed = false;
  /** The runs folder: history, imports, exports (electron/runs/files/run-library.ts). */
  readonly library: RunLibrary;

  constructor(
    readonly dir: string,
    private readonly emit: Emit,
    private readonly resolveTarget: (id: string) => ResolvedTarget | null,
    private readonly opts: {
      version: string;
      reveal?: (p: string) => boolean;
      progressIntervalMs?: number;
      /** Something else holds the server (a sweep): why no run can start now, or null. */
      busy?: () => string | null;
    } = { version: 'unknown' },
  ) {
    this.library = new RunLibrary(dir, {
      runningKey: () => this.active?.key ?? null,
      runningHeader: () => this.active?.header ?? null,
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
    const other = this.opts.busy?.();
    if (other) throw new RunError(other, 'busy');
    const ready = await this.prepare(input);
    if (this.active) throw new RunError('a run started meanwhile', 'busy');
    const spans = await this.spanReceiver(input);
    const runId = randomUUID();
    const fileName = defaultRunFileName(Date.now(), runId).split('/').pop()!;
    const key = fileName;
    const ac = new AbortController();
    // Swimlane traffic, batched.
    const lanes = new RunLanes(runId, (batch) => this.emit('onRunLanes', batch));
    const active: Active = { runId, key, ac, done: Promise.resolve() };
    this.active = active;
    active.done = this.execute({ ...ready, input, runId, key, fileName, ac, lanes, spans });
    return { runId, key };
  }

  /**
   * The run form's "listen for server traces" (docs/tracing.md): the run's own OTLP receiver, open
   * for the run and closed after it, as `run --otlp-listen` (same receiver, limits and counts).
   */
  private async spanReceiver(input: StartRunInput): Promise<SpanReceiver | null> {
    if (!input.otlpListen) return null;
    const r = await openSpanReceiver(input.otlpListen.port, input.otlpListen.host);
    if (!r.ok) throw new RunError(r.error.message, r.error.kind === 'port-taken' ? 'busy' : 'client');
    if (this.active) {
      await r.value.close();
      throw new RunError('a run started meanwhile', 'busy');
    }
    return r.value;
  }

  /**
   * The form's run, checked and resolved: its target, workload, dialect, model and prompts (a
   * sweep's too: app/sweep-service.ts).
   */
  async prepare(input: Omit<StartRunInput, 'repeat'>): Promise<Prepared> {
    const t = this.resolveTarget(input.targetId);
    if (!t) throw new RunError(`No target ${input.targetId}.`, 'not-found');
    const { target: _ignored, ...raw } = input.workload;
    const parsed = parseWorkload(raw);
    if (!parsed.ok)
      throw new RunError(
        `bad workload: ${parsed.error.map((i) => `${i.path || '(workload)'}: ${i.message}`).join('; ')}`,
      );
    const w = parsed.value;
    const dialect: DialectId = input.dialect ?? t.dialect;
    try {
      const { model, prompts } = await prepareRun(
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
      return { t, w, dialect, model, prompts };
    } catch (e) {
      if (e instanceof PrepareError) throw new RunError(e.message);
      throw e;
    }
  }

  /** The run, start to end: its events to the UI, then onRunFinished whatever happened. */
  private async execute(l: Launch): Promise<void> {
    const { runId, key, ac, lanes } = l;
    try {
      const result = await runWorkload(this.runOptions(l));
      lanes.close();
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
      lanes.close();
      this.active = null;
      const summary = (await this.tryRead(key))?.summary ?? null;
      this.emit('onRunFinished', {
        runId,
        key,
        summary,
        cancelled: ac.signal.aborted,
        fileError: null,
        error: errorMessage(e),
        ...(e instanceof TestRequestError ? { testRequestFailed: true } : {}),
      });
    } finally {
      await l.spans?.close();
      if (!this.disposed) void this.emitList();
    }
  }

  private runOptions(l: Launch): RunOptions {
    const { t, w, input, runId, key, lanes } = l;
    let announced = false;
    return {
      workload: w,
      target: {
        url: t.baseUrl,
        dialect: l.dialect,
        model: l.model,
        headers: t.headers,
        apiKey: t.apiKey,
        insecureTls: t.insecureTls,
      },
      prompts: l.prompts,
      spans: l.spans,
      runId,
      ...(input.repeat ? { repeat: input.repeat } : {}),
      serverMetrics: input.serverMetrics === false ? null : scrapeTargetOf(t),
      telemetryUrls: input.serverMetrics === false ? [] : (t.telemetryUrls ?? []),
      metricsEndpoints: input.serverMetrics === false ? [] : (t.metricsEndpoints ?? []),
      outFile: path.join(this.dir, l.fileName),
      name: input.name || w.name || null,
      signal: l.ac.signal,
      tokenscopeVersion: this.opts.version,
      progressIntervalMs: this.opts.progressIntervalMs,
      onProgress: (p) => {
        // Before the header: only the test request's "testing" ticks (the run may never start).
        if (!announced && p.phase !== 'test') return;
        this.emit('onRunProgress', p);
      },
      onRequestStart: (s) => lanes.start(s),
      onRequestEvents: (id, rec, from) => lanes.events(id, rec, from),
      onRequestDone: (line) => lanes.done(line),
      onStarted: (header) => {
        announced = true;
        if (this.active?.key === key) this.active.header = header;
        this.emit('onRunStarted', {
          runId,
          key,
          header,
          selfCheckThresholds: { ...SELF_CHECK_THRESHOLDS },
        });
        void this.emitList();
      },
    };
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

  /** The run's requests as OTLP client spans to `url` (the run view's "Export as OTLP traces"). */
  async exportOtlp(key: string, url: string): Promise<OtlpExported> {
    const d = await this.open(key);
    if (!d.header || !d.lines)
      throw new RunError('an imported result has no per-request times to send as spans');
    const r = await exportRunOtlp(d.header, d.lines, url, this.opts.version);
    if (!r.ok) throw new RunError(r.error.message);
    return r.value;
  }

  report(keys: readonly string[], definitions?: DefinitionsId): Promise<RunExport> {
    return this.library.report(keys, definitions);
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
