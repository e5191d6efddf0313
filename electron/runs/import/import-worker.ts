/**
 * The import thread (thread.ts starts one per import): reads and parses one result file and
 * posts the result back, so the server's loop stays free while a 200 MB file is parsed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { workerInput } from '../../workers/spawn.ts';
import { importJob, type ImportJob } from './parse.ts';
import { errorMessage } from '../../../shared/result.ts';

const job = workerInput<ImportJob>(workerData);
importJob(job).then(
  (r) => parentPort!.postMessage({ result: r }),
  (e: unknown) =>
    parentPort!.postMessage({ readError: (e as NodeJS.ErrnoException).code ?? errorMessage(e) }),
);
