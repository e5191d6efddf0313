// Worker-thread entry when Tokenscope runs from source (the CLI through tsx, vitest): registers
// tsx in this thread, then loads the TypeScript module named in workerData.entry. The built
// desktop app never uses it (its workers are bundled to plain JavaScript beside main.js).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
