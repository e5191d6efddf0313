/**
 * Test helpers: run `node bin/tokenscope.mjs …` as a user would (a real process, real stdout and
 * exit code), and read its output line by line while it runs. Every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: string[]): ChildProcess {
  return spawn(process.execPath, ['bin/tokenscope.mjs', ...args], {
    cwd: REPO,
    env: { ...process.env, TOKENSCOPE_API_KEY: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the CLI to completion (killed after `timeoutMs`). */
export function runCli(args: string[], timeoutMs = 20_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = start(args);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tokenscope ${args.join(' ')} still running after ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A running CLI whose stdout lines can be awaited as they arrive. */
export class LiveCli {
  readonly lines: string[] = [];
  stderr = '';
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private wake: (() => void) | null = null;

  constructor(args: string[]) {
    this.child = start(args);
    this.child.stderr?.on('data', (b: Buffer) => (this.stderr += b.toString('utf8')));
    createInterface({ input: this.child.stdout! }).on('line', (l) => {
      this.lines.push(l);
      this.wake?.();
    });
    this.exited = new Promise((ok) => this.child.on('close', (code) => ok(code)));
    void this.exited.then(() => this.wake?.());
  }

  /** The first line (from index `from`) that satisfies `pred`, parsed as JSON; fails after `timeoutMs`. */
  async waitJson<T = Record<string, unknown>>(
    pred: (j: T, index: number) => boolean,
    timeoutMs = 10_000,
    from = 0,
  ): Promise<{ json: T; index: number }> {
    const end = performance.now() + timeoutMs;
    let i = from;
    for (;;) {
      for (; i < this.lines.length; i++) {
        const j = JSON.parse(this.lines[i] as string) as T;
        if (pred(j, i)) return { json: j, index: i };
      }
      if (this.child.exitCode !== null)
        throw new Error(`CLI exited (${this.child.exitCode}): ${this.stderr}`);
      const left = end - performance.now();
      if (left <= 0)
        throw new Error(`no matching line within ${timeoutMs} ms; got ${this.lines.length} lines`);
      await new Promise<void>((ok) => {
        const t = setTimeout(ok, left);
        this.wake = () => {
          clearTimeout(t);
          ok();
        };
      });
    }
  }

  /** Ctrl-C, then the exit code (SIGKILL if it does not stop within 5 s). */
  async interrupt(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    this.child.kill('SIGINT');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    const code = await this.exited;
    clearTimeout(killer);
    return code;
  }
}

/** A throwaway HTTP server on 127.0.0.1:0 answering every request with `handler`. */
export async function serveOnce(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ url: string; close: () => void }> {
  const server = http.createServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

/** One streaming chat request against the simulator, read to the end. */
export async function streamChat(baseUrl: string, maxTokens: number): Promise<string> {
  const r = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'tokenscope-sim',
      messages: [{ role: 'user', content: 'Tell me about the sea.' }],
      max_tokens: maxTokens,
      ignore_eos: true,
      stream: true,
    }),
  });
  if (r.status !== 200) throw new Error(`sim answered ${r.status}`);
  return r.text();
}
