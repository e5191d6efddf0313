/**
 * Parsing an imported result off the caller's loop: one worker thread per file (import-worker.ts).
 * A 200 MB vLLM result froze web mode 8.9 s when parsed on the server's loop (500 MB: 50 s); on its
 * own thread the server answers other requests meanwhile. A thread that cannot start (a build
 * without the worker) falls back to parsing here, as before.
 */
import type { Worker } from 'node:worker_threads';
import type { ImportResult } from '../../shared/runs/vllm-format.ts';
import { startWorker } from '../workers/spawn.ts';
import { importJob, type ImportJob } from './import-parse.ts';

type Reply = { result: ImportResult } | { readError: string };

/** The file's runs (or why not); throws like readFile when the file cannot be read. */
export async function importOffThread(job: ImportJob): Promise<ImportResult> {
  let worker: Worker;
  try {
    worker = startWorker('import-worker', job);
  } catch {
    return importJob(job);
  }
  const reply = await new Promise<Reply | Error>((resolve) => {
    worker.once('message', (m: Reply) => resolve(m));
    worker.once('error', (e) => resolve(e));
    worker.once('exit', (code) => resolve(new Error(`the import thread stopped (exit ${code})`)));
  });
  void worker.terminate();
  if (reply instanceof Error) return { ok: false, error: `could not be read: ${reply.message}` };
  if ('readError' in reply) throw Object.assign(new Error(reply.readError), { code: reply.readError });
  return reply.result;
}
