/**
 * The simulator's accept backlog is uvicorn's (2,048), the one vLLM's and SGLang's servers run
 * with, not Node's default of 511. When the simulator's loop is busy (uploads of large images at
 * hundreds a second), new connections wait in the kernel's accept queue; past the backlog the
 * kernel drops their handshakes, the client's connect waits at least a second for a SYN
 * retransmit, and a connection whose last ACK was dropped was reset half a minute later (16 % of
 * a 10,000-request run of 256² images, BENCHMARKS.md). Here a child process opens 800 connections
 * while the simulator's loop is blocked: every one completes its handshake at once.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0 });
});
afterAll(() => sim.close());

/** A child that opens `n` connections to `port` at once and prints each one's connect time, ms. */
const CLIENT = `
const net = require('node:net');
const [port, n] = process.argv.slice(1).map(Number);
const times = [];
const socks = [];
const t0 = performance.now();
for (let i = 0; i < n; i++) {
  const s = net.connect(port, '127.0.0.1', () => {
    times.push(performance.now() - t0);
    if (times.length === n) { console.log(JSON.stringify(times)); for (const x of socks) x.destroy(); }
  });
  s.on('error', (e) => { console.log(JSON.stringify({ error: e.code })); process.exit(1); });
  socks.push(s);
}
`;

describe("the simulator's accept backlog", () => {
  it('holds 800 connections that arrive while its loop is busy: none waits for a SYN retransmit', async () => {
    const port = Number(new URL(sim.url).port);
    const child = spawn(process.execPath, ['-e', CLIENT, String(port), '800'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    // Block this thread, the simulator's, while the child connects: nothing is accepted meanwhile.
    const until = performance.now() + 1500;
    while (performance.now() < until) {
      /* busy: the simulator's loop cannot accept */
    }
    expect(await exited).toBe(0);
    const times = JSON.parse(out) as number[];
    expect(times).toHaveLength(800);
    // The kernel completed every handshake while the loop was blocked: all within the block, none
    // after a dropped SYN's retransmit (1 s at the earliest), which past a 511 backlog ~290 would wait.
    const late = times.filter((t) => t > 1000).length;
    expect(late, `${late} of 800 connects took over 1 s`).toBe(0);
  }, 30_000);
});
