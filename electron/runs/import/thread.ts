/**
 * Parsing an imported result off the caller's loop: one worker thread per file (import-worker.ts).
 * A 200 MB vLLM result froze web mode 8.9 s when parsed on the server's loop (500 MB: 50 s); on its
 * own thread the server answers other requests meanwhile. A thread that cannot start or dies (a
 * build without the worker) falls back to parsing here, as before; one out of memory is an error.
 */
import type { Worker } from 'node:worker_threads';
import type { ImportResult } from '../../../shared/runs/import/vllm-format.ts';
import { startWorker } from '../../workers/spawn.ts';
import { importJob, type ImportJob } from './parse.ts';

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
  if (reply instanceof Error) {
    // Out of memory on its thread would be out of memory here too: said, not retried.
    if ((reply as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY')
      return { ok: false, error: 'the file needs more memory than an import may take' };
    return importJob(job); // the thread could not start or run (a build without it): here, as before
  }
  if ('readError' in reply) throw Object.assign(new Error(reply.readError), { code: reply.readError });
  return reply.result;
}
