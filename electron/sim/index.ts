/**
 * Tokenscope's built-in simulator: a vLLM-compatible inference server with continuous batching,
 * a waiting queue, vLLM v1 /metrics, the other servers' native streaming dialects, faults on
 * demand, replay of captured streams, and a ground-truth log of every chunk it writes.
 *
 *   const sim = await startSim({ decodeStepMs: 5, groundTruth: true });
 *   // POST `${sim.url}/v1/chat/completions` ...; GET `${sim.url}/metrics`
 *   await sim.close();
 *
 * No 'electron' import: it runs in the Electron main process, the CLI and tests alike.
 */
import { resolveOptions } from './options.ts';
import { SimHttpServer } from './server.ts';
import type { SimOptions, SimServer } from './types.ts';

export type { SimOptions, SimServer } from './types.ts';

export async function startSim(opts: SimOptions = {}): Promise<SimServer> {
  const server = new SimHttpServer(resolveOptions(opts));
  await server.listen();
  return server;
}
