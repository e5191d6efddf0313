/**
 * The simulator's thread (started by startSimThread in thread.ts through workers/spawn.ts): runs
 * startSim with the options it was given, reports `ready` with the URL (or `failed` with the
 * reason), publishes its state into shared memory, sends new ground-truth records, forwards log
 * lines, answers `state` and `groundTruth`, and on `close` closes the server and lets the thread
 * exit. Everything the simulator does happens here, off the thread that timestamps streams.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { workerInput } from '../workers/spawn.ts';
import { startSim } from './index.ts';
import {
  GROUND_TRUTH_EVERY_MS,
  SharedState,
  STATE_EVERY_MS,
  type FromSimThread,
  type SimThreadInput,
  type ToSimThread,
} from './thread.ts';
import type { SimServer } from './types.ts';

const port = parentPort!;
const input = workerInput<SimThreadInput>(workerData);
const shared = new SharedState(input.state);
const send = (m: FromSimThread): void => port.postMessage(m);

let sim: SimServer;
try {
  sim = await startSim({
    ...input.options,
    log: input.log ? (line) => send({ op: 'log', line }) : undefined,
  });
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  send({ op: 'failed', message: err.message, code: typeof err.code === 'string' ? err.code : null });
  // Ends this thread only; the message above is delivered before the main side sees 'exit'.
  process.exit(1);
}

let sentRecords = 0;
const publish = (): void => shared.write(sim.state());
const sendNewRecords = (): void => {
  const all = sim.groundTruth();
  if (all.length > sentRecords) send({ op: 'newGroundTruth', records: all.slice(sentRecords) });
  sentRecords = all.length;
};
publish();
const stateTimer = setInterval(publish, STATE_EVERY_MS);
const gtTimer = sim.options.groundTruth ? setInterval(sendNewRecords, GROUND_TRUTH_EVERY_MS) : null;

const { log: _log, ...resolved } = sim.options;
send({ op: 'ready', url: sim.url, port: sim.port, options: resolved });

port.on('message', (m: ToSimThread) => {
  switch (m.op) {
    case 'state': {
      const state = sim.state();
      shared.write(state);
      send({ op: 'state', token: m.token, state });
      break;
    }
    case 'groundTruth': {
      const records = sim.groundTruth();
      sentRecords = records.length;
      send({ op: 'groundTruth', token: m.token, records });
      break;
    }
    case 'close':
      clearInterval(stateTimer);
      if (gtTimer) clearInterval(gtTimer);
      void sim.close().then(() => {
        publish();
        send({ op: 'closed' });
        // Nothing is left on this thread's loop once its port is closed: the thread exits.
        port.close();
      });
      break;
  }
});
