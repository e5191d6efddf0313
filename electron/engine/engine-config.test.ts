/**
 * The engine configuration: what an entry point reads from the environment (engineConfigFromEnv),
 * the defaults a test or library caller gets, and that the measuring thread's priority changes
 * only when the configuration asks for it.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, defaultEngineConfig, engineConfigFromEnv } from './engine-config.ts';
import { IoEngine } from './io/io-engine.ts';
import { measuringThreadNice } from './io/io-threads.ts';
import { MAX_IO_THREADS } from './io/io-limits.ts';

const MiB = 1024 * 1024;

describe('engineConfigFromEnv', () => {
  it('with nothing set: the defaults, the priority step on', () => {
    const c = engineConfigFromEnv({});
    expect(c.limits).toEqual(DEFAULT_LIMITS);
    expect(c.limits).toEqual({
      maxEventChars: 8 * MiB,
      maxRecordTextChars: 64 * MiB,
      maxRecordEvents: 2_000_000,
      idleTimeoutMs: 60_000,
      backlogHighBytes: MiB,
    });
    expect(c.httpClient).toBe('raw');
    expect(c.lowerPriority).toBe(true);
    expect(c.historyMaxBytes).toBe(256 * MiB);
    expect(c.ioThreads).toBeGreaterThanOrEqual(1);
    expect(c.ioThreads).toBeLessThanOrEqual(MAX_IO_THREADS);
  });

  it('reads every variable it documents', () => {
    const c = engineConfigFromEnv({
      TOKENSCOPE_MAX_EVENT_MB: '2',
      TOKENSCOPE_MAX_RECORD_MB: '3',
      TOKENSCOPE_MAX_EVENTS: '1000',
      TOKENSCOPE_IDLE_TIMEOUT_S: '0.5',
      TOKENSCOPE_IO_BACKLOG_KB: '256',
      TOKENSCOPE_IO_THREADS: '0',
      TOKENSCOPE_HTTP_CLIENT: 'node',
      TOKENSCOPE_NO_NICE: '1',
      TOKENSCOPE_HISTORY_MB: '16',
    });
    expect(c).toEqual({
      ioThreads: 0,
      httpClient: 'node',
      lowerPriority: false,
      historyMaxBytes: 16 * MiB,
      limits: {
        maxEventChars: 2 * MiB,
        maxRecordTextChars: 3 * MiB,
        maxRecordEvents: 1000,
        idleTimeoutMs: 500,
        backlogHighBytes: 256 * 1024,
      },
    });
  });

  it('ignores nonsense as before (a number is needed; threads clamped; idle 0 = never)', () => {
    const c = engineConfigFromEnv({
      TOKENSCOPE_MAX_EVENT_MB: 'lots',
      TOKENSCOPE_MAX_EVENTS: '',
      TOKENSCOPE_IO_THREADS: '99',
      TOKENSCOPE_IDLE_TIMEOUT_S: '0',
      TOKENSCOPE_HTTP_CLIENT: 'curl',
    });
    expect(c.limits.maxEventChars).toBe(DEFAULT_LIMITS.maxEventChars);
    expect(c.limits.maxRecordEvents).toBe(DEFAULT_LIMITS.maxRecordEvents);
    expect(c.ioThreads).toBe(MAX_IO_THREADS);
    expect(c.limits.idleTimeoutMs).toBe(0);
    expect(c.httpClient).toBe('raw');
  });

  it('does not read process.env itself: what it is given is all it sees', () => {
    const saved = process.env.TOKENSCOPE_MAX_EVENTS;
    process.env.TOKENSCOPE_MAX_EVENTS = '7';
    try {
      expect(engineConfigFromEnv({}).limits.maxRecordEvents).toBe(DEFAULT_LIMITS.maxRecordEvents);
      expect(defaultEngineConfig().limits.maxRecordEvents).toBe(DEFAULT_LIMITS.maxRecordEvents);
    } finally {
      if (saved === undefined) delete process.env.TOKENSCOPE_MAX_EVENTS;
      else process.env.TOKENSCOPE_MAX_EVENTS = saved;
    }
  });
});

describe("the measuring thread's nice value", () => {
  it("is 10 steps back from the process's own, capped at 19", () => {
    expect(measuringThreadNice(0)).toBe(10);
    expect(measuringThreadNice(-5)).toBe(5);
    expect(measuringThreadNice(-20)).toBe(-10);
    expect(measuringThreadNice(15)).toBe(19);
    expect(measuringThreadNice(19)).toBe(19);
  });
});

describe.runIf(process.platform === 'linux')('the measuring thread priority', () => {
  it('an engine made with the defaults (tests, library callers) leaves its caller alone', async () => {
    const before = os.getPriority(0);
    expect(before).toBeLessThan(19);
    const e = new IoEngine(defaultEngineConfig({ ioThreads: 1 }));
    try {
      await e.ready();
      expect(e.mode.threads).toBe(1);
      expect(os.getPriority(0)).toBe(before);
    } finally {
      await e.close();
    }
  });

  it('steps back 10 from where it was when the entry point asks (lowerPriority), once I/O threads exist', async () => {
    const before = os.getPriority(0);
    const e = new IoEngine(defaultEngineConfig({ ioThreads: 1, lowerPriority: true }));
    try {
      await e.ready();
      expect(os.getPriority(0)).toBe(Math.min(19, before + 10));
    } finally {
      await e.close();
    }
  });
});
