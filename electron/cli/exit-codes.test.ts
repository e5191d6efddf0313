/** The CLI as a user meets it: exit 0 / 1 / 2 as the README says, and no stack trace for any input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSim, type SimServer } from '../sim/index.ts';
import { closedPort } from '../testing/cli.ts';

const BIN = path.join(fileURLToPath(new URL('../../', import.meta.url)), 'bin/tokenscope.mjs');
let sim: SimServer;

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(async () => {
  await sim.close();
});

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, TOKENSCOPE_DEBUG: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
const TRACE = /\n\s+at .+:\d+:\d+/;

describe('tokenscope exit codes', () => {
  it('--version prints the package version, exit 0', async () => {
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('bad usage is exit 2 with a message and no stack trace', { timeout: 60_000 }, async () => {
    for (const args of [
      ['probe', '--nope', 'http://x'],
      ['probe', 'ht!tp://x'],
      ['probe'],
      ['run', '--target', sim.url, '-n', '2', '--rate', 'fast'],
      ['run', '--target', 'ftp://x', '-n', '2'],
      ['nosuchcommand'],
      ['serve', '--no-sim', '--sim-port', '8123'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/error/);
      expect(r.stderr, args.join(' ')).not.toMatch(TRACE);
    }
  });

  it('a flag typo: the hint and one line on --help, not the whole help', async () => {
    const r = await cli(['run', '--target', sim.url, '--request', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(Did you mean --requests?)');
    expect(r.stderr).toContain("(run 'tokenscope run --help' for its options)");
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(4);
    expect(r.stderr).not.toMatch(/Options:/);
  });

  it('a refused connection leads with the network error and exits 1 (the usage was fine)', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const probe = await cli(['probe', url]);
    expect(probe.code, probe.stderr).toBe(1);
    expect(probe.stderr).toMatch(new RegExp(`^error \\(network\\): ${url}: Connection refused`));
    const run = await cli(['run', '--target', url, '-n', '2']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^error: ${url}: Connection refused`));
  });

  it('a value a flag gave that the workload schema refuses is named by the flag', async () => {
    const r = await cli(['run', '--target', sim.url, '-c', '0', '-n', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-c/--concurrency: At least 1.');
    expect(r.stderr).not.toContain('maxConcurrency');
  });

  it('a scheme-less host:port is taken as http:// and said so', { timeout: 30_000 }, async () => {
    const hostPort = sim.url.replace(/^http:\/\//, '');
    const r = await cli(['probe', hostPort, '-m', 'tokenscope-sim', '--max-tokens', '4']);
    expect(r.stderr).toContain(`no scheme; using http://${hostPort}`);
    expect(r.code, r.stderr).toBe(0);
  });

  it(
    'a server that accepts and says nothing fails after the default idle timeout, which says how to change it',
    { timeout: 30_000 },
    async () => {
      const silent = await startSim({ port: 0, decodeStepMs: 1, fault: 'slow-first-byte:20000' });
      try {
        const t0 = performance.now();
        // The default (60 s) scaled down through its environment override, nothing on the command line.
        const r = await cli(['probe', silent.url, '-m', 'tokenscope-sim'], {
          TOKENSCOPE_IDLE_TIMEOUT_S: '0.5',
        });
        expect(r.code).toBe(1);
        expect(r.stdout + r.stderr).toMatch(/No byte arrived for 500 ms \(the idle timeout: --idle-timeout/);
        expect(performance.now() - t0).toBeLessThan(15_000);
      } finally {
        await silent.close();
      }
    },
  );
});
