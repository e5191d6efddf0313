/**
 * The test request before a run's clock starts: a permanent failure stops the run at once with the
 * server's words and no run file; a passing one (5xx, dropped stream) is tried again; its numbers
 * are in the header, never in the run's; it can be turned off; a cancel during it cancels the run.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { readRunFile } from './files/run-file.ts';
import { TestRequestError } from './runner.ts';
import { isTransient } from './test-request.ts';
import { runAgainst, tmpDir } from '../testing/runs.ts';

const fast = { port: 0, decodeStepMs: 2, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 };
const small = {
  requests: 4,
  maxConcurrency: 2,
  prompts: { type: 'synthetic', inputLen: 8, outputLen: 3 },
} as const;
let sim: SimServer;
const dir = tmpDir('tokenscope-test-request-');

beforeAll(async () => {
  sim = await startSim({ ...fast, seed: 3 });
});
afterAll(async () => {
  await sim.close();
});

async function failure(p: Promise<unknown>): Promise<TestRequestError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TestRequestError);
    return e as TestRequestError;
  }
  throw new Error('the run started');
}

describe('the test request', () => {
  it('passes: its numbers go into the header, the run counts only its own requests', async () => {
    const out = path.join(dir, 'ok.jsonl');
    const r = await runAgainst(sim, small, { outFile: out });
    expect(r.header.testRequest).toMatchObject({ attempts: 1, outputTokens: 3 });
    expect(r.header.testRequest!.ttftMs).toBeGreaterThan(0);
    expect(r.header.testRequest!.e2eMs).toBeGreaterThanOrEqual(r.header.testRequest!.ttftMs!);
    expect(r.lines).toHaveLength(4);
    expect(r.summary.vllm.completed).toBe(4);
    expect(r.progress[0]!.phase).toBe('test');
    expect(r.progress.at(-1)!.phase).toBe('done');
    const f = await readRunFile(out);
    expect(f.ok && f.value.header.testRequest?.attempts).toBe(1);
    expect(f.ok && f.value.requests).toHaveLength(4);
  });

  it('a wrong model (404) stops the run at once with the server’s words, and no file is left', async () => {
    const out = path.join(dir, 'wrong-model.jsonl');
    const e = await failure(
      runAgainst(sim, small, {
        outFile: out,
        target: { url: sim.url, dialect: 'openai-chat', model: 'nope' },
      }),
    );
    expect(e.attempts).toBe(1);
    expect(e.requestError).toMatchObject({ kind: 'http', status: 404 });
    expect(e.message).toMatch(/^The test request failed, so the run did not start: HTTP 404: .*nope/);
    expect(existsSync(out)).toBe(false);
  });

  it('a closed port stops at once (connection refused)', async () => {
    const e = await failure(
      runAgainst('http://127.0.0.1:1', small, { outFile: path.join(dir, 'refused.jsonl') }),
    );
    expect(e.attempts).toBe(1);
    expect(e.requestError.code).toBe('refused');
    expect(existsSync(path.join(dir, 'refused.jsonl'))).toBe(false);
  });

  it('a server failing every request with 500 is tried 3 times, then stops', async () => {
    const failing = await startSim({ ...fast, fault: 'http-500' });
    try {
      const e = await failure(runAgainst(failing, small));
      expect(e.attempts).toBe(3);
      expect(e.message).toMatch(/failed 3 times, so the run did not start: HTTP 500/);
    } finally {
      await failing.close();
    }
  });

  it('a passing failure is tried again: two 503s, then the run goes on (attempts in the header)', async () => {
    let n = 0;
    const flaky = http.createServer((req, res) => {
      if (++n <= 2) {
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end('{"error":{"message":"loading the model","type":"ServiceUnavailable"}}');
        return;
      }
      const up = http.request(
        new URL(req.url!, sim.url),
        { method: req.method, headers: req.headers },
        (u) => {
          res.writeHead(u.statusCode!, u.headers);
          u.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
      const r = await runAgainst(url, small);
      expect(r.header.testRequest?.attempts).toBe(3);
      expect(r.summary.vllm.completed).toBe(4);
      expect(r.summary.vllm.failed).toBe(0);
      expect(n).toBe(2 + 1 + 4);
    } finally {
      flaky.closeAllConnections();
      await new Promise((r) => flaky.close(r));
    }
  });

  it('turned off (testRequest: false): no test, every request fails into the run', async () => {
    const r = await runAgainst('http://127.0.0.1:1', { ...small, testRequest: false });
    expect(r.header.testRequest).toBeUndefined();
    expect(r.summary.vllm.failed).toBe(4);
    expect(r.summary.errors).toEqual({ 'network/refused': 4 });
  });

  it('cancelled during the test request: the run ends cancelled, nothing measured', async () => {
    const slow = await startSim({ ...fast, fault: 'slow-first-byte:5000' });
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 150);
      const r = await runAgainst(slow, small, { signal: ac.signal });
      expect(r.cancelled).toBe(true);
      expect(r.header.testRequest).toBeUndefined();
      expect(r.lines.filter((l) => !l.warmup && l.status === 'ok')).toHaveLength(0);
    } finally {
      await slow.close();
    }
  });

  it('which failures are tried again', () => {
    const e = (kind: 'http' | 'network' | 'protocol' | 'server' | 'client', code: string, status?: number) =>
      isTransient({ kind, code: code as never, message: '', ...(status ? { status } : {}) });
    expect(e('http', 'status', 500)).toBe(true);
    expect(e('http', 'status', 503)).toBe(true);
    expect(e('http', 'status', 429)).toBe(true);
    expect(e('http', 'status', 408)).toBe(true);
    expect(e('http', 'status', 400)).toBe(false);
    expect(e('http', 'status', 401)).toBe(false);
    expect(e('http', 'status', 404)).toBe(false);
    expect(e('network', 'refused')).toBe(false);
    expect(e('network', 'dns')).toBe(false);
    expect(e('network', 'tls')).toBe(false);
    expect(e('network', 'reset')).toBe(true);
    expect(e('server', 'error-event')).toBe(true);
    expect(e('protocol', 'truncated')).toBe(true);
    expect(e('protocol', 'not-streamed')).toBe(false);
    expect(e('protocol', 'content-type')).toBe(false);
    expect(e('protocol', 'compressed')).toBe(false);
    expect(e('client', 'idle-timeout')).toBe(true);
    expect(e('client', 'invalid-request')).toBe(false);
  });
});
