import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSim, type SimServer } from '../sim/index.ts';
import { until } from '../testing/until.ts';
import { numberedFile } from './run.ts';
import { readRunFile } from '../runs/files/run-file.ts';
import { rederiveRun } from '../../shared/runs/summary/rederive.ts';
import { tmpDir } from '../testing/runs.ts';
import { startCorpusServer } from '../testing/corpus-server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin/tokenscope.mjs');
const dir = tmpDir('tokenscope-cli-');
let sim: SimServer;
let failing: SimServer;

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 4, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  failing = await startSim({ port: 0, decodeStepMs: 2, fault: 'http-500' });
});
afterAll(async () => {
  await sim.close();
  await failing.close();
});

function cli(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [BIN, 'run', ...args], {
    cwd: dir,
    env: { ...process.env, TOKENSCOPE_API_KEY: 'sk-secret-in-env' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

const requestLines = (f: string): number =>
  existsSync(f)
    ? readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"type":"request"')).length
    : 0;

describe('tokenscope run (CLI)', () => {
  it('SIGKILL mid-run: the file reopens as partial with every request that was flushed', async () => {
    const out = path.join(dir, 'killed.jsonl');
    const { child, done } = cli([
      '--target',
      sim.url,
      '--requests',
      '400',
      '--concurrency',
      '2',
      '--input-len',
      '8',
      '--output-len',
      '40',
      '--out',
      out,
      '-q',
    ]);
    await until(() => requestLines(out) >= 2, 20_000, 20);
    child.kill('SIGKILL');
    const r = await done;
    expect(r.signal).toBe('SIGKILL');
    const text = readFileSync(out, 'utf8');
    // Every newline-terminated line is complete JSON (a torn tail, if any, is after the last newline).
    const complete = text.slice(0, text.lastIndexOf('\n')).split('\n');
    for (const l of complete) expect(() => JSON.parse(l)).not.toThrow();
    const f = await readRunFile(out);
    expect(f.ok).toBe(true);
    if (!f.ok) return;
    expect(f.value.partial).toBe(true);
    expect(f.value.requests.length).toBeGreaterThanOrEqual(2);
    expect(f.value.requests.length).toBe(complete.length - 1);
    expect(f.value.requests.length).toBeLessThan(400);
    expect(f.value.summary.vllm.completed).toBe(f.value.requests.length);
    expect(text).not.toContain('sk-secret-in-env');
  });

  it('--json: vLLM key names plus our own, exit 0, and the run file', async () => {
    const out = path.join(dir, 'ok.jsonl');
    const { done } = cli([
      '--target',
      sim.url,
      '--model',
      'tokenscope-sim',
      '-n',
      '6',
      '-c',
      '2',
      '--rate',
      '100',
      '--input-len',
      '8',
      '--output-len',
      '4',
      '--seed',
      '3',
      '--slo-ttft',
      '10000',
      '--out',
      out,
      '--json',
    ]);
    const r = await done;
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ completed: 6, failed: 0, total_output_tokens: 24, run_file: out });
    for (const k of [
      'duration',
      'request_throughput',
      'request_goodput',
      'output_throughput',
      'mean_ttft_ms',
      'p99_itl_ms',
      'p99.9_e2el_ms',
      'max_concurrent_requests',
      'mean_itl_per_token_ms',
      'self_check',
      'output_token_source',
    ])
      expect(j, k).toHaveProperty([k]);
    expect(j.request_goodput).toBeCloseTo(6 / (j.duration as number), 9);
    // The server's own /metrics, watched through the run: it generated what the client received.
    expect(j.server).toMatchObject({ source: 'scrape', profile: 'vllm-v1', delta: { generationTokens: 24 } });
    const f = await readRunFile(out);
    expect(f.ok && !f.value.partial && f.value.header.target.authenticated).toBe(true);
    expect(readFileSync(out, 'utf8')).not.toContain('sk-secret-in-env');
    // vLLM's keys are the run under vLLM's preset (role chunk as first token, every choices gap),
    // so they compare one to one with `vllm bench serve`; Tokenscope's own follow, prefixed.
    if (!f.ok) return;
    const v = rederiveRun(f.value.header, f.value.requests, f.value.summary, 'vllm').summary.vllm;
    const own = f.value.summary.vllm;
    expect(j.vllm_keys_definitions).toBe('vllm');
    for (const k of ['mean_ttft_ms', 'mean_itl_ms', 'p99_itl_ms', 'mean_e2el_ms', 'mean_tpot_ms']) {
      expect(j[k], k).toBe(v[k]);
      expect(j[`tokenscope_${k}`], k).toBe(own[k]);
    }
    expect(v.mean_itl_ms).not.toBe(own.mean_itl_ms); // the role chunk's gap is an ITL to vLLM
  });

  it('a failing test request stops the run before it starts: its error, exit 1, no run file', async () => {
    const out = path.join(dir, 'untested.jsonl');
    const r = await cli(['--target', failing.url, '-m', 'x', '-n', '3', '--out', out]).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: The test request failed 3 times, so the run did not start: HTTP 500/);
    expect(r.stderr).toContain('--no-test-request skips the test');
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    expect(r.stderr).not.toContain('run file:'); // no path to a file that was never written
    // A passing one prints what it saw, before the run's progress.
    const ok = await cli([
      '--target',
      sim.url,
      '-m',
      'tokenscope-sim',
      '-n',
      '2',
      '--output-len',
      '2',
      '--out',
      path.join(dir, 'tested.jsonl'),
    ]).done;
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/test request: ok · TTFT [\d.]+ ms · 2 tokens in [\d.]+ s/);
    expect(ok.stderr).toContain(`run file: ${path.join(dir, 'tested.jsonl')}`);
    expect(existsSync(path.join(dir, 'tested.jsonl'))).toBe(true);
  });

  it('prints the vLLM-style table; exit 1 when every request failed', async () => {
    const { done } = cli([
      '--target',
      failing.url,
      '-m',
      'x',
      '-n',
      '3',
      '--output-len',
      '2',
      '--no-test-request',
      '--out',
      path.join(dir, 'failed.jsonl'),
    ]);
    const r = await done;
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('============ Serving Benchmark Result ============');
    expect(r.stdout).toMatch(/Failed requests:\s+3/);
    expect(r.stderr).toMatch(/every request failed \(http\/status ×3\)/);
  });

  it('the table ends with the server side; --no-server-metrics leaves it out', async () => {
    const run = (extra: string[], name: string) =>
      cli([
        '--target',
        sim.url,
        '-m',
        'tokenscope-sim',
        '-n',
        '3',
        '--output-len',
        '5',
        '--out',
        path.join(dir, name),
        ...extra,
      ]).done;
    const watched = await run([], 'watched.jsonl');
    expect(watched.code).toBe(0);
    expect(watched.stdout).toMatch(/^-+Server Side \(its own metrics\)-+$/m);
    expect(watched.stdout).toMatch(/Generated tokens \(server \/ received\):\s+15 \/ 15/);
    expect(watched.stdout).toMatch(new RegExp(`Read from:\\s+${sim.url}/metrics`));
    // Three idle-server requests queue for well under vLLM's first queue bucket (0, 0.3 s]: the
    // quantiles are written as that bucket, not as an interpolated "150.00".
    expect(watched.stdout).toMatch(/Server queue time p50 \/ p99 \(ms\):\s+0–300 \/ 0–300$/m);
    const bare = await run(['--no-server-metrics'], 'bare.jsonl');
    expect(bare.code).toBe(0);
    expect(bare.stdout).not.toContain('Server Side');
  });

  it('--target twice: the same workload on each server in turn, then the two compared', async () => {
    const slow = await startSim({ port: 0, decodeStepMs: 12, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
    try {
      const out = path.join(dir, 'ab.jsonl');
      const host = (u: string) => new URL(u).host;
      const r = await cli([
        '--target',
        sim.url,
        '--target',
        slow.url,
        '-m',
        'tokenscope-sim',
        // Enough requests for a p50 interval (at least 4 beyond it in each run).
        '-n',
        '12',
        '--output-len',
        '8',
        '--name',
        'ab',
        '--out',
        out,
      ]).done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`run 1 of 2: ${sim.url}`);
      expect(r.stderr).toContain(`run 2 of 2: ${slow.url}`);
      // Two summaries, then the comparison of the two run files (numbered after --out).
      expect(r.stdout.match(/Serving Benchmark Result/g)).toHaveLength(2);
      const a = path.join(dir, 'ab.1.jsonl');
      const b = path.join(dir, 'ab.2.jsonl');
      expect(r.stdout).toContain(`A  ab · ${host(sim.url)} · tokenscope-sim · ${sim.url}`);
      expect(r.stdout).toContain(`B  ab · ${host(slow.url)} · tokenscope-sim · ${slow.url}`);
      const [ra, rb] = await Promise.all([readRunFile(a), readRunFile(b)]);
      if (!ra.ok || !rb.ok) throw new Error('run files unreadable');
      // Same seed, same workload: the very same prompts were sent to both.
      const same = (w: Record<string, unknown>) => ({ ...w, target: undefined, name: undefined });
      expect(same(rb.value.header.workload)).toEqual(same(ra.value.header.workload));
      expect([ra.value.header.target.url, rb.value.header.target.url]).toEqual(
        [sim.url, slow.url].map((u) => expect.stringContaining(host(u))),
      );
      // Three times the decode step: TPOT worse on B, and the comparison says so.
      const tpot = r.stdout.split('\n').find((l) => l.trimStart().startsWith('TPOT p50')) ?? '';
      expect(tpot).toMatch(/\+\d[\d.]*%\s+\[\+[\d.]+%, \+[\d.]+%\]\s+↓ worse$/);
      // --metrics-url names one server; more than four targets cannot be compared.
      const bad = await cli(['--target', sim.url, '--target', slow.url, '--metrics-url', sim.url]).done;
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--metrics-url names one server/);
      // A bad second target is refused before the first run starts (no run file written).
      const late = await cli([
        '--target',
        sim.url,
        '--target',
        'ftp://files.example',
        '--out',
        path.join(dir, 'late.jsonl'),
      ]).done;
      expect(late.code).toBe(2);
      expect(late.stderr).toMatch(/"ftp:\/\/files.example": only http:\/\/ and https:\/\/ servers/);
      expect(existsSync(path.join(dir, 'late.1.jsonl'))).toBe(false);
      const many = await cli(Array.from({ length: 5 }, () => ['--target', sim.url]).flat()).done;
      expect(many.code).toBe(2);
      expect(many.stderr).toMatch(/at most 4 times/);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('--api-key once per --target: each server gets its own key, none is written', async () => {
    // Two recording proxies in front of the simulator: which Authorization each was sent.
    const seen = { a: new Set<string>(), b: new Set<string>() };
    const proxy = (name: 'a' | 'b') =>
      http.createServer((req, res) => {
        seen[name].add(String(req.headers.authorization));
        const up = http.request(
          new URL(req.url ?? '/', sim.url),
          { method: req.method, headers: { ...req.headers, host: new URL(sim.url).host } },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        req.pipe(up);
      });
    const [pa, pb] = [proxy('a'), proxy('b')];
    await Promise.all([pa, pb].map((p) => new Promise<void>((ok) => p.listen(0, '127.0.0.1', ok))));
    const url = (p: http.Server) => `http://127.0.0.1:${(p.address() as AddressInfo).port}`;
    try {
      const out = path.join(dir, 'keys.jsonl');
      const args = [
        '--target',
        url(pa),
        '--target',
        url(pb),
        '-m',
        'tokenscope-sim',
        '-n',
        '2',
        '--output-len',
        '2',
      ];
      const r = await cli([...args, '--api-key', 'sk-for-a', '--api-key', 'sk-for-b', '--out', out, '-q'])
        .done;
      expect(r.code, r.stderr).toBe(0);
      expect([...seen.a]).toEqual(['Bearer sk-for-a']);
      expect([...seen.b]).toEqual(['Bearer sk-for-b']);
      for (const f of [numberedFile(out, 1), numberedFile(out, 2)])
        expect(readFileSync(f, 'utf8')).not.toMatch(/sk-for-[ab]/);
      const wrong = await cli([...args, '--api-key', 'k1', '--api-key', 'k2', '--api-key', 'k3']).done;
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/--api-key given 3 times for 2 targets/);
    } finally {
      await Promise.all([pa, pb].map((p) => new Promise<void>((ok) => p.close(() => ok()))));
    }
  }, 60_000);

  it('exit 2 on a bad workload, with the path of what is wrong', async () => {
    const wl = path.join(dir, 'bad.json');
    writeFileSync(
      wl,
      JSON.stringify({
        requests: 5,
        rate: -2,
        prompts: { type: 'synthetic', inputLen: { type: 'uniform', min: 9, max: 1 } },
      }),
    );
    const r = await cli([wl, '--target', sim.url]).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/rate: /);
    expect(r.stderr).toMatch(/prompts\.inputLen\.max: min must be ≤ max/);
    expect((await cli(['-n', '2']).done).stderr).toMatch(/no target/);
  });

  it('--idle-timeout fails requests a silent server holds; limits and timer bounds are exit 2, never a trace', async () => {
    const silent = await startSim({ port: 0, decodeStepMs: 2, fault: 'slow-first-byte:3000' });
    try {
      const out = path.join(dir, 'idle.jsonl');
      const r = await cli([
        '--target',
        silent.url,
        '-m',
        'tokenscope-sim',
        '-n',
        '2',
        '--output-len',
        '2',
        '--idle-timeout',
        '300',
        '--no-test-request',
        '--out',
        out,
      ]).done;
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/every request failed \(client\/idle-timeout ×2\)/);
      // (The server holds its first byte 3 s and would then stream: idle-timeout means ours fired.)
      const f = await readRunFile(out);
      expect(f.ok && f.value.header.workload.idleTimeoutMs).toBe(300);
    } finally {
      await silent.close();
    }
    for (const args of [
      ['--input-len', '1000000000'],
      ['--timeout', String(2 ** 31)],
      ['-c', '1000000'],
    ]) {
      const r = await cli(['--target', sim.url, '-n', '2', ...args]).done;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /); // no stack trace
    }
  });

  it("warns when the test request's response names another model, and keeps that name in the run", async () => {
    // llama.cpp's real bytes: it answers any `model` with the one it has loaded.
    const llama = await startCorpusServer('llamacpp-chat.sse', [], 0);
    try {
      const out = path.join(dir, 'other-model.jsonl');
      const args = ['--target', llama.url, '-n', '2', '--no-server-metrics', '-q'];
      const r = await cli([...args, '--out', out, '-m', 'llama-3-8b']).done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        'warning: asked for model "llama-3-8b", the server answered as "llama-3.2-1b-instruct-q4_k_m.gguf"',
      );
      const f = await readRunFile(out);
      expect(f.ok && f.value.header.testRequest?.responseModel).toBe('llama-3.2-1b-instruct-q4_k_m.gguf');
      const same = await cli([
        ...args,
        '--out',
        path.join(dir, 'same-model.jsonl'),
        '-m',
        'llama-3.2-1b-instruct-q4_k_m.gguf',
      ]).done;
      expect(same.code, same.stderr).toBe(0);
      expect(same.stderr).not.toContain('warning');
    } finally {
      await llama.close();
    }
  }, 60_000);
});
