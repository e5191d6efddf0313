// Memory stays bounded and limits hold whatever a server floods a stream with (issue 24): for every
// dialect and every shape of flood — pings, comments, blank lines, `event:`-only blocks, the
// dialect's meta events, data after the end marker — a request fired through the real engine and
// its stream-I/O thread, in a child process whose peak memory is measured, stops at its record's
// limit (exactly, for events) or by its timeout, with a classified error and the events before it
// kept, its peak memory within the stated bound. Before back-pressure and counting every framed
// unit, a comment flood ran 2.6× past its timeout and grew by 160 MB here in 1.5 s (GBs on a faster
// machine), an `event: ping` flood kept millions of events past a "record-limit".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAMING_DIALECT_IDS } from '../../shared/dialects.ts';
import { REPO_ROOT } from '../testing/corpus.ts';
import { FLOOD_SHAPES, floodOf, startHostileServer, type HostileServer } from '../testing/hostile-server.ts';
import type { FloodOutcome } from '../testing/flood-child.ts';
import { recordBoundBytes } from './record-limits.ts';
import { DEFAULT_LIMITS } from './engine-config.ts';

const BACKLOG_HIGH_BYTES = DEFAULT_LIMITS.backlogHighBytes;

const MAX_EVENTS = 20_000;
const MAX_TEXT_MB = 1;
/**
 * The stated bound on what one request may add to the process's peak: its record's bound
 * (record-limits.ts: README "Limits"), its backlog's bound, and 48 MiB of working room (V8's young
 * generation and heap growth, the I/O thread's batch buffers) that does not grow with the limits.
 */
const PEAK_BOUND_BYTES =
  recordBoundBytes({ maxEvents: MAX_EVENTS, maxTextChars: MAX_TEXT_MB * 1024 * 1024 }) +
  BACKLOG_HIGH_BYTES +
  48 * 1024 * 1024;
/** The child is killed past this (the test fails rather than the machine swapping). */
const KILL_RSS_KB = 1536 * 1024;
/** How late past its timeout a request may end on a busy machine (it was 2.6× the timeout late). */
const TIMEOUT_SLACK_MS = 1500;

let srv: HostileServer;
beforeAll(async () => {
  srv = await startHostileServer();
});
afterAll(() => srv.close());

/** Runs the child on these cases, watching its memory; resolves with an outcome per case. */
async function runChild(
  cases: string[],
  timeoutMs: number,
  env: Record<string, string>,
): Promise<Map<string, FloodOutcome>> {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      path.join(REPO_ROOT, 'bin/run-ts.mjs'),
      'electron/testing/flood-child.ts',
      srv.url,
      String(timeoutMs),
      ...cases,
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, TOKENSCOPE_IO_THREADS: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  let killedAt = 0;
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const watch = setInterval(() => {
    try {
      const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
      if (rss > KILL_RSS_KB) {
        killedAt = rss;
        child.kill('SIGKILL');
      }
    } catch {
      // gone already
    }
  }, 50);
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  clearInterval(watch);
  if (killedAt)
    throw new Error(`the child reached ${Math.round(killedAt / 1024)} MB and was killed; so far:\n${stdout}`);
  if (code !== 0) throw new Error(`the child failed (${code}): ${stderr.slice(-2000)}`);
  const out = new Map<string, FloodOutcome>();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const o = JSON.parse(line) as FloodOutcome;
    out.set(`${o.dialect}/${o.shape}`, o);
  }
  return out;
}

describe('floods stop at the record limit: every dialect, every shape', () => {
  const cases = STREAMING_DIALECT_IDS.flatMap((d) => FLOOD_SHAPES.map((s) => `${d}/${s}`));
  const TIMEOUT_MS = 8_000;
  let out: Map<string, FloodOutcome>;
  beforeAll(async () => {
    out = await runChild(cases, TIMEOUT_MS, {
      TOKENSCOPE_MAX_EVENTS: String(MAX_EVENTS),
      TOKENSCOPE_MAX_RECORD_MB: String(MAX_TEXT_MB),
    });
  }, 600_000);

  it.each(cases)('%s', (c) => {
    const o = out.get(c)!;
    expect(o, c).toBeDefined();
    const [dialect, shape] = c.split('/') as [
      (typeof STREAMING_DIALECT_IDS)[number],
      (typeof FLOOD_SHAPES)[number],
    ];
    const flood = floodOf(dialect, shape);
    // Ended by its limit (or, on a machine too busy to reach it, its timeout), classified.
    expect(o.error, JSON.stringify(o)).not.toBeNull();
    expect(o.ms).toBeLessThan(TIMEOUT_MS + TIMEOUT_SLACK_MS);
    expect(o.events).toBeLessThanOrEqual(MAX_EVENTS);
    if (o.error!.code !== 'timeout') {
      // The stop reason is the limit, unless an earlier error came first (pings are not valid
      // OpenAI chunks: bad-json), which is kept.
      expect(['record-limit', 'bad-json', 'error-event']).toContain(o.error!.code);
      // Events floods stop at the limit exactly.
      if (['pings', 'meta-events', 'after-done'].includes(shape)) expect(o.events).toBe(MAX_EVENTS);
    }
    // What came before the flood is kept.
    expect(o.contentEvents).toBeGreaterThanOrEqual(flood.headContent);
    expect(o.text.length).toBeGreaterThan(0);
    // Memory within the stated bound.
    expect((o.peakKb - o.rssKb) * 1024, JSON.stringify(o)).toBeLessThan(PEAK_BOUND_BYTES);
  });
});

describe('a flood that never reaches a limit ends by its timeout, its memory flat', () => {
  const shapes = ['comments', 'blank-lines', 'event-only'] as const;
  const cases = STREAMING_DIALECT_IDS.flatMap((d) => shapes.map((s) => `${d}/${s}`));
  const TIMEOUT_MS = 1_500;
  let out: Map<string, FloodOutcome>;
  beforeAll(async () => {
    out = await runChild(cases, TIMEOUT_MS, { TOKENSCOPE_MAX_EVENTS: '1000000000' });
  }, 600_000);

  it.each(cases)('%s', (c) => {
    const o = out.get(c)!;
    expect(o, c).toBeDefined();
    expect(o.error).toMatchObject({ kind: 'client', code: 'timeout' });
    expect(o.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(o.ms).toBeLessThan(TIMEOUT_MS + TIMEOUT_SLACK_MS);
    expect(o.contentEvents).toBeGreaterThanOrEqual(1);
    // Nothing is kept of a flood of non-events: the peak is the backlog and working room.
    expect((o.peakKb - o.rssKb) * 1024, JSON.stringify(o)).toBeLessThan(
      BACKLOG_HIGH_BYTES + 48 * 1024 * 1024,
    );
  });
});

describe.each([
  ['inline (--io-threads 0)', { TOKENSCOPE_IO_THREADS: '0' }],
  ["Node's HTTP client (https, TOKENSCOPE_HTTP_CLIENT=node)", { TOKENSCOPE_HTTP_CLIENT: 'node' }],
])('the same back-pressure with the driver %s', (_name, env) => {
  const cases = ['openai-chat/comments', 'anthropic-messages/blank-lines', 'ollama-generate/comments'];
  const TIMEOUT_MS = 1_500;
  let out: Map<string, FloodOutcome>;
  beforeAll(async () => {
    out = await runChild(cases, TIMEOUT_MS, { TOKENSCOPE_MAX_EVENTS: '1000000000', ...env });
  }, 300_000);

  it.each(cases)('%s', (c) => {
    const o = out.get(c)!;
    expect(o.error).toMatchObject({ kind: 'client', code: 'timeout' });
    expect(o.ms).toBeLessThan(TIMEOUT_MS + TIMEOUT_SLACK_MS);
    expect(o.contentEvents).toBeGreaterThanOrEqual(1);
    expect((o.peakKb - o.rssKb) * 1024, JSON.stringify(o)).toBeLessThan(
      BACKLOG_HIGH_BYTES + 48 * 1024 * 1024,
    );
  });
});
