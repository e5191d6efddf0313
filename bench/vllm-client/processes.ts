/**
 * The vllm-client bench's processes (bench/vllm-client.bench.ts): which cores the simulator and the
 * clients are pinned to, running a command to its end, and starting a simulator.
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(ROOT, 'bin/tokenscope.mjs');
export const DRIVER = path.join(ROOT, 'bench/vllm-client/driver.py');

/** Command prefixes (taskset) for the simulator and the clients, and what they mean. */
export interface Pinning {
  server: string[];
  client: string[];
  note: string;
}

export function pinning(): Pinning {
  const ok = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;
  if (!ok || os.cpus().length < 2) return { server: [], client: [], note: 'not pinned' };
  return {
    server: ['taskset', '-c', '1'],
    client: ['taskset', '-c', '0'],
    note: 'simulator on CPU 1, each client on CPU 0',
  };
}

export function run(cmd: string[], quiet = true): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd[0]!, cmd.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    c.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!quiet) process.stderr.write(d);
    });
    c.on('error', reject);
    c.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

export async function startSim(pin: string[], extra: string[]): Promise<{ url: string; stop: () => void }> {
  const args = [...pin, process.execPath, CLI, 'sim', '--port', '0', '--quiet', ...extra];
  const c = spawn(args[0]!, args.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    c.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(buf);
      if (m) resolve(m[1]!.replace(/\/$/, ''));
    });
    c.on('exit', (code) => reject(new Error(`simulator exited (${code})`)));
  });
  return { url, stop: () => c.kill() };
}
