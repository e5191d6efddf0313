/**
 * The app's core, transport-free: the embedded simulator (the default target), the target
 * store, the request service and the handler table. Electron's main process and web mode
 * (`tokenscope serve`) each build one and connect it to their transport.
 */
import os from 'node:os';
import path from 'node:path';
import type { ApiHandlers, AppInfo } from '../../shared/api.ts';
import type { SimServer } from '../sim/index.ts';
import { startSimThread } from '../sim/thread.ts';
import type { SimOptions } from '../sim/types.ts';
import { createHandlers } from './handlers.ts';
import { RequestService } from './requests-service.ts';
import { MetricsService } from './metrics-service.ts';
import { RunService } from './runs-service.ts';
import { SweepService } from './sweep-service.ts';
import type { SecretBox } from './secrets.ts';
import { TargetStore } from './targets-service.ts';
import type { Emit } from './emit.ts';
import { errorMessage } from '../../shared/result.ts';
import { openSpanReceiver } from '../runs/server-spans.ts';
import { DebuggerSpans } from './request-spans.ts';

export interface CoreOptions {
  mode: 'electron' | 'web';
  version: string;
  /** Folder for targets.json; null = nothing persisted (tests). */
  userDataDir: string | null;
  secrets: SecretBox;
  /** Start the built-in simulator (default true). */
  startSimulator?: boolean;
  simPort?: number;
  /** The built-in simulator's own options over the demo's (e.g. speculative mode: specK, specAccept). */
  sim?: Omit<SimOptions, 'log'>;
  /** Where run files go (default: <userDataDir>/runs, or a temp folder when nothing is persisted). */
  runsDir?: string;
  /** Show a file in the system's file manager (Electron's shell.showItemInFolder). */
  reveal?: (file: string) => boolean;
  emit: Emit;
  log?: (line: string) => void;
  /** The request history's bound (the entry point's engine configuration); default 256 MiB. */
  historyMaxBytes?: number;
  /**
   * The request debugger's OTLP receiver (app/request-spans.ts) on 127.0.0.1: its port (default
   * any free one), or false for none.
   */
  debugOtlpPort?: number | false;
}

export interface Core {
  handlers: ApiHandlers;
  targets: TargetStore;
  requests: RequestService;
  runs: RunService;
  sweeps: SweepService;
  sim: SimServer | null;
  close(): Promise<void>;
}

export async function createCore(o: CoreOptions): Promise<Core> {
  const targets = new TargetStore(o.userDataDir ? path.join(o.userDataDir, 'targets.json') : null, o.secrets);
  if (targets.loadError) o.log?.(targets.loadError);
  const debugSpans = await openDebuggerSpans(o);
  let sim: SimServer | null = null;
  if (o.startSimulator !== false) {
    try {
      // In its own thread: the simulator's work must never delay this thread's timestamps.
      // Two synthetic GPUs (its /gpu-metrics): the demo's GPU panels show one line each.
      sim = await startSimThread({
        port: o.simPort ?? 0,
        host: '127.0.0.1',
        jitter: 0.1,
        streamInterval: 1,
        gpus: 2,
        // Its spans reach the debugger's receiver: a request's server phases under its chunks.
        ...(debugSpans ? { otlpEndpoint: debugSpans.url } : {}),
        ...o.sim,
      });
      targets.simUrl = sim.url;
    } catch (e) {
      o.log?.(`built-in simulator failed to start: ${errorMessage(e)}`);
    }
  }
  const requests = new RequestService(o.emit, o.historyMaxBytes, debugSpans);
  const metrics = new MetricsService(o.emit, (id) => targets.resolve(id));
  const runsDir =
    o.runsDir ??
    (o.userDataDir
      ? path.join(o.userDataDir, 'runs')
      : path.join(os.tmpdir(), `tokenscope-runs-${process.pid}`));
  let sweeps: SweepService | null = null;
  const runs = new RunService(runsDir, o.emit, (id) => targets.resolve(id), {
    version: o.version,
    reveal: o.reveal,
    busy: () => sweeps?.busyText() ?? null,
  });
  sweeps = new SweepService(runs, o.emit);
  const info = (): AppInfo => ({
    version: o.version,
    mode: o.mode,
    simUrl: sim?.url ?? null,
    secretsPersisted: o.secrets.canPersist,
  });
  const handlers = createHandlers({
    info,
    targets,
    requests,
    metrics,
    runs,
    sweeps,
    onTargetsChanged: () => {
      o.emit('onTargetsChanged', targets.list());
      metrics.refresh(); // an edited key or header takes effect now, not at the next watch
    },
  });
  return {
    handlers,
    targets,
    requests,
    runs,
    sweeps,
    sim,
    async close() {
      await sweeps.dispose();
      await runs.dispose();
      requests.dispose();
      metrics.dispose();
      await sim?.close();
      await debugSpans?.close();
    },
  };
}

/** The debugger's span receiver, or null (turned off, or its port cannot be had: said in the log). */
async function openDebuggerSpans(o: CoreOptions): Promise<DebuggerSpans | null> {
  if (o.debugOtlpPort === false) return null;
  const r = await openSpanReceiver(o.debugOtlpPort ?? 0);
  if (!r.ok) {
    o.log?.(`request debugger: no server traces (${r.error.message})`);
    return null;
  }
  o.log?.(`request debugger: receiving server traces (OTLP/HTTP) at ${r.value.url}`);
  return new DebuggerSpans(r.value);
}
