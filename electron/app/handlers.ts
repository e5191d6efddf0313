/**
 * The handler table for every method of shared/api.ts. Both transports (Electron IPC in
 * electron/ipc.ts, WebSocket in electron/serve.ts) serve exactly this object, through
 * `dispatch`, which validates arguments against the contract's schemas first.
 */
import type { ApiErrorKind, ApiHandlers, ApiMethod, AppInfo, Result } from '../../shared/api.ts';
import { API_METHODS } from '../../shared/api.ts';
import { fail, ok } from '../../shared/result.ts';
import { discoverModels } from '../engine/models.ts';
import type { RequestService } from './requests-service.ts';
import type { TargetStore } from './targets-service.ts';
import type { MetricsService } from './metrics-service.ts';
import { curlCommand } from './curl.ts';
import { RunError, type RunService } from './runs-service.ts';
import type { SweepService } from './sweep-service.ts';
import { errorMessage } from '../../shared/result.ts';

export interface Services {
  info: () => AppInfo;
  targets: TargetStore;
  requests: RequestService;
  metrics: MetricsService;
  runs: RunService;
  sweeps: SweepService;
  onTargetsChanged: () => void;
}

/** A failed call in the contract's error shape, built with shared/result.ts's `fail`. */
const err = (kind: ApiErrorKind, message: string, code?: string): Result<never> =>
  fail({ kind, message, code });

/** Runs' errors carry their kind ('busy', 'not-found', …); file system errors are 'io'. */
async function runCall<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await fn());
  } catch (e) {
    if (e instanceof RunError) return err('client', e.message, e.kind);
    const code = (e as NodeJS.ErrnoException).code;
    return err('io', errorMessage(e), code);
  }
}

export function createHandlers(s: Services): ApiHandlers {
  return {
    getAppInfo: async () => ok(s.info()),
    listTargets: async () => ok(s.targets.list()),
    saveTarget: async (input) => {
      try {
        const v = s.targets.save(input);
        s.onTargetsChanged();
        return ok(v);
      } catch (e) {
        return err('client', errorMessage(e));
      }
    },
    deleteTarget: async (id) => {
      if (!s.targets.delete(id)) return err('client', `No target ${id}.`);
      s.onTargetsChanged();
      return ok(true as const);
    },
    listModels: async (id) => {
      const t = s.targets.resolve(id);
      if (!t) return err('client', `No target ${id}.`);
      const r = await discoverModels(t.baseUrl, t.dialect, {
        apiKey: t.apiKey,
        headers: t.headers,
        insecureTls: t.insecureTls,
      });
      return r.ok ? ok(r.value) : err(r.error.kind, r.error.message, r.error.code);
    },
    fireRequest: async (input) => {
      const t = s.targets.resolve(input.targetId);
      if (!t) return err('client', `No target ${input.targetId}.`);
      return ok({ requestId: s.requests.fire(input, t) });
    },
    cancelRequest: async (id) => ok({ cancelled: s.requests.cancel(id) }),
    getRequest: async (id) => {
      const r = s.requests.get(id);
      return r ? ok(r) : err('client', `No finished request ${id} in this session.`);
    },
    listHistory: async () => ok(s.requests.list()),
    watchMetrics: async (ids) => ok(s.metrics.watch(ids)),
    startRun: (input) => runCall(() => s.runs.start(input)),
    cancelRun: async (id) => ok({ cancelled: s.runs.cancel(id) }),
    listRuns: () => runCall(() => s.runs.list()),
    openRun: (key) => runCall(() => s.runs.open(key)),
    renameRun: (key, name) => runCall(async () => (await s.runs.rename(key, name), true as const)),
    deleteRun: (key) => runCall(async () => (await s.runs.delete(key), true as const)),
    exportRun: (key, format) => runCall(() => s.runs.export(key, format)),
    exportReport: (keys, defs) => runCall(() => s.runs.report(keys, defs)),
    importRun: (input) => runCall(() => s.runs.import(input.filename, input.content)),
    revealRun: (key) => runCall(() => s.runs.reveal(key)),
    exportRunOtlp: (key, url) => runCall(() => s.runs.exportOtlp(key, url)),
    startSweep: (input) => runCall(() => s.sweeps.start(input)),
    cancelSweep: async (id) => ok({ cancelled: s.sweeps.cancel(id) }),
    listSweeps: () => runCall(() => s.sweeps.list()),
    openSweep: (key) => runCall(() => s.sweeps.open(key)),
    curlFor: async (input) => {
      const t = s.targets.resolve(input.targetId);
      if (!t) return err('client', `No target ${input.targetId}.`);
      return ok({ command: curlCommand(input, t) });
    },
  };
}

/** Validate and call. Unknown methods and bad arguments are answered, never thrown. */
export async function dispatch(
  handlers: ApiHandlers,
  method: string,
  args: unknown,
): Promise<Result<unknown>> {
  if (!Object.prototype.hasOwnProperty.call(API_METHODS, method))
    return err('client', `Unknown method ${method}.`, 'unknown-method');
  const m = method as ApiMethod;
  const parsed = API_METHODS[m].safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(
      'client',
      `Invalid arguments for ${m}: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid'}`,
      'invalid-arguments',
    );
  }
  try {
    const fn = handlers[m] as (...a: unknown[]) => Promise<Result<unknown>>;
    return await fn(...(parsed.data as unknown[]));
  } catch (e) {
    return err('internal', `${m} failed: ${errorMessage(e)}`);
  }
}
