/**
 * Starts one of Tokenscope's worker threads (the stream-I/O thread, the simulator's thread) in
 * every environment it runs in:
 * - from source (the CLI and web mode through tsx, vitest): ts-bootstrap.mjs registers tsx in the
 *   new thread and imports `<name>.ts` from this folder;
 * - the built desktop app: electron-vite bundles each worker to `out/main/<name>.js` (inputs in
 *   electron.vite.config.ts) and this module, bundled into main.js, loads it from beside itself.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export type WorkerName = 'io-worker' | 'sim-worker' | 'import-worker';

/** Where each worker's source lives, relative to this folder. */
const SOURCES: Record<WorkerName, string> = {
  'io-worker': '../engine/io/io-worker.ts',
  'sim-worker': '../sim/sim-worker.ts',
  'import-worker': '../runs/import/import-worker.ts',
};

function fromSource(): boolean {
  return import.meta.url.endsWith('.ts');
}

export function startWorker(
  name: WorkerName,
  data: unknown,
  opts: Omit<WorkerOptions, 'workerData'> = {},
): Worker {
  if (fromSource()) {
    return new Worker(new URL('./ts-bootstrap.mjs', import.meta.url), {
      ...opts,
      workerData: { entry: new URL(SOURCES[name], import.meta.url).href, data },
    });
  }
  return new Worker(new URL(`./${name}.js`, import.meta.url), { ...opts, workerData: { entry: null, data } });
}

/** Inside a worker started by startWorker: the data it was given. */
export function workerInput<T>(wd: unknown): T {
  return (wd as { data: T }).data;
}
