/**
 * The accuracy bench's child processes (bench/accuracy.bench.ts): which cores the reference server
 * and the clients are pinned to, starting the server, asking it for its truth, and running one
 * client process to its result file.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientResult, Truth } from './common.ts';
import type { AccuracyOptions, ClientKind } from './options.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUN_TS = path.join(ROOT, 'bin', 'run-ts.mjs');

/** The CPUs this process may run on (Linux), else 0…n−1. */
function allowedCpus(): number[] {
  try {
    const m = /Cpus_allowed_list:\s*(\S+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) {
      const out: number[] = [];
      for (const part of m[1]!.split(',')) {
        const [lo, hi] = part.split('-').map(Number);
        for (let i = lo!; i <= (hi ?? lo!); i++) out.push(i);
      }
      if (out.length) return out;
    }
  } catch {
    // not Linux: fall through
  }
  return Array.from({ length: os.cpus().length }, (_, i) => i);
}

export function pinning(o: AccuracyOptions): { server: string | null; client: string | null; note: string } {
  const hasTaskset = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;
  const cpus = allowedCpus();
  if (!hasTaskset || cpus.length < 2) {
    return {
      server: null,
      client: null,
      note: hasTaskset
        ? `not pinned: only ${cpus.length} CPU allowed`
        : 'not pinned: taskset not available (server and clients share every core)',
    };
  }
  const server = o.serverCpu === undefined ? String(cpus[1]) : o.serverCpu;
  const client = o.clientCpus === undefined ? String(cpus[0]) : o.clientCpus;
  return {
    server,
    client,
    note: `server on CPU ${server ?? 'any (not pinned)'}, each client process (all its threads) on CPU ${client ?? 'any (not pinned)'}`,
  };
}

function command(cpu: string | null, script: string, args: string[]): [string, string[]] {
  const node = [process.execPath, RUN_TS, path.join(ROOT, script), ...args];
  return cpu === null ? [node[0]!, node.slice(1)] : ['taskset', ['-c', cpu, ...node]];
}

export async function startServer(
  cpu: string | null,
  o: AccuracyOptions,
): Promise<{ child: ChildProcess; url: string }> {
  const [cmd, args] = command(cpu, 'bench/accuracy/ref-server.ts', [
    '--port',
    '0',
    '--step-ms',
    String(o.stepMs),
    '--tokens',
    String(o.tokens),
  ]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('reference server did not start within 30 s')), 30_000);
    child.stdout!.on('data', (b: Buffer) => {
      buf += b.toString();
      const m = /listening (http:\/\/\S+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`reference server exited (${code})`));
    });
  }).catch((e: unknown) => {
    child.kill('SIGKILL');
    throw e;
  });
  return { child, url };
}

export function getTruth(url: string): Promise<Truth> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/__truth`, { agent: false, timeout: 15_000 }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(parts).toString('utf8')) as Truth);
        } catch (e) {
          reject(e as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('truth: no answer within 15 s')));
    req.on('error', reject);
  });
}

export async function runClient(
  kind: ClientKind,
  url: string,
  streams: number,
  o: AccuracyOptions,
  cpu: string | null,
): Promise<ClientResult> {
  const out = path.join(os.tmpdir(), `tokenscope-accuracy-${process.pid}-${kind}-${streams}.json`);
  fs.rmSync(out, { force: true });
  // Bounded: the streams themselves, the warm-up, connecting N sockets, and a generous margin.
  const hardMs = 60_000 + 3 * (o.tokens + o.warmupTokens) * o.stepMs + 50 * streams;
  const [cmd, args] = command(cpu, `bench/accuracy/${kind}-client.ts`, [
    '--url',
    url,
    '--streams',
    String(streams),
    '--tokens',
    String(o.tokens),
    '--warmup-tokens',
    String(o.warmupTokens),
    '--timeout-ms',
    String(hardMs - 15_000),
    '--out',
    out,
  ]);
  const env = { ...process.env };
  if (kind === 'engine' && o.ioThreads !== undefined) env.TOKENSCOPE_IO_THREADS = String(o.ioThreads);
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: ROOT, env });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  });
  const code = await new Promise<number | string>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(`killed after ${Math.round(hardMs / 1000)} s`);
    }, hardMs);
    child.once('exit', (c, sig) => {
      clearTimeout(timer);
      resolve(c ?? String(sig));
    });
  });
  if (code !== 0 || !fs.existsSync(out))
    throw new Error(`${kind} client (${streams} streams) failed: ${code}\n${stderr.trim()}`);
  const r = JSON.parse(fs.readFileSync(out, 'utf8')) as ClientResult;
  fs.rmSync(out, { force: true });
  return r;
}
