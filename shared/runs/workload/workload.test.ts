import { describe, expect, it } from 'vitest';
import { arrivalProcessOf, parseWorkload, rateOf, WORKLOAD_LIMITS } from './workload.ts';

describe('workload schema', () => {
  it('fills defaults like vLLM (rate inf, burstiness 1 → Poisson, synthetic with ignore_eos)', () => {
    const r = parseWorkload({ requests: 10 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const w = r.value;
    expect(w.rate).toBe('inf');
    expect(rateOf(w)).toBe(Infinity);
    expect(arrivalProcessOf(w)).toBe('poisson');
    expect(w.maxConcurrency).toBeNull();
    expect(w.prompts).toMatchObject({
      type: 'synthetic',
      force: 'ignore_eos',
      inputLen: { type: 'fixed', value: 128 },
    });
    expect(w.includeUsage).toBe(true);
  });

  it('a bare number is a fixed length; burstiness ≠ 1 means gamma', () => {
    const r = parseWorkload({
      requests: 5,
      rate: 4,
      burstiness: 0.5,
      prompts: { type: 'synthetic', inputLen: 64, outputLen: { type: 'uniform', min: 8, max: 16 } },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.prompts).toMatchObject({
      inputLen: { type: 'fixed', value: 64 },
      outputLen: { type: 'uniform', min: 8, max: 16 },
    });
    expect(arrivalProcessOf(r.value)).toBe('gamma');
  });

  it('reports errors with their paths', () => {
    const r = parseWorkload({
      requests: 0,
      rate: -1,
      prompts: { type: 'synthetic', outputLen: { type: 'uniform', min: 9, max: 3 } },
      target: { url: 'not a url' },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.error.map((i) => i.path);
    expect(paths).toContain('requests');
    expect(paths).toContain('rate');
    expect(paths).toContain('prompts.outputLen.max');
    expect(paths).toContain('target.url');
  });

  it('refuses API keys, in target.apiKey or an authorization or x-api-key header', () => {
    for (const target of [
      { url: 'http://x', apiKey: 'sk-123' },
      { url: 'http://x', headers: { Authorization: 'Bearer sk' } },
      { url: 'http://x', dialect: 'anthropic-messages', headers: { 'X-Api-Key': 'sk-ant' } },
    ]) {
      const r = parseWorkload({ requests: 1, target });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.map((i) => i.message).join(' ')).toMatch(/API keys are not stored/);
    }
  });

  it('checks combinations: a count or a duration; poisson means burstiness 1; ramp-up needs a rate', () => {
    const msgs = (v: unknown) => {
      const r = parseWorkload(v);
      return r.ok ? [] : r.error.map((i) => `${i.path}: ${i.message}`);
    };
    expect(msgs({})).toEqual(['requests: set requests, durationS or both']);
    expect(msgs({ requests: 1, arrival: 'poisson', burstiness: 2 })[0]).toMatch(/^burstiness:/);
    expect(msgs({ requests: 1, rampUp: { startRate: 0, durationS: 5 } })[0]).toMatch(/^rampUp:/);
    expect(msgs({ durationS: 5 })[0]).toMatch(/^maxConcurrency:/);
    expect(msgs({ durationS: 5, maxConcurrency: 4 })).toEqual([]);
    expect(msgs({ requests: 1, bogus: true })[0]).toMatch(/bogus/);
  });

  it('a parsed workload parses again to itself (the run header stores it)', () => {
    const r = parseWorkload({
      requests: 3,
      prompts: { type: 'jsonl', path: 'p.jsonl', outputLen: 12 },
      slo: { ttftMs: 100 },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const again = parseWorkload(JSON.parse(JSON.stringify(r.value)));
    expect(again).toEqual(r);
  });
});

describe('workload timeouts', () => {
  it('refuses a timeoutMs a timer cannot hold (over 2^31 − 1 ms), with its path', () => {
    const r = parseWorkload({ requests: 1, timeoutMs: 2 ** 31 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.map((i) => i.path)).toEqual(['timeoutMs']);
    expect(parseWorkload({ requests: 1, timeoutMs: 2 ** 31 - 1 }).ok).toBe(true);
  });
});

describe('workload bounds (a typo is a message, not an out-of-memory abort)', () => {
  const base = { requests: 10 };
  const issuesOf = (w: object): string[] => {
    const r = parseWorkload({ ...base, ...w });
    return r.ok ? [] : r.error.map((i) => `${i.path}: ${i.message}`);
  };

  it('refuses lengths, counts, rates and durations past their limits, with the path', () => {
    expect(issuesOf({ prompts: { type: 'synthetic', inputLen: 1e9 } })[0]).toMatch(
      /^prompts\.inputLen\.value: at most 1048576 tokens/,
    );
    expect(
      issuesOf({ prompts: { type: 'synthetic', outputLen: { type: 'uniform', min: 1, max: 5e6 } } })[0],
    ).toMatch(/^prompts\.outputLen\.max/);
    expect(issuesOf({ requests: 1e8 })[0]).toMatch(/^requests/);
    expect(issuesOf({ maxConcurrency: 1e6 })[0]).toMatch(/^maxConcurrency/);
    expect(issuesOf({ rate: 1e9 })[0]).toMatch(/^rate/);
    expect(issuesOf({ warmup: 1e7 })[0]).toMatch(/^warmup/);
    expect(issuesOf({ durationS: 1e9, maxConcurrency: 4 })[0]).toMatch(/^durationS/);
    expect(issuesOf({ sampling: { maxTokens: 1e9 } })[0]).toMatch(/^sampling\.maxTokens/);
    expect(issuesOf({ timeoutMs: 2 ** 31 })[0]).toMatch(/^timeoutMs/);
    expect(issuesOf({ idleTimeoutMs: -1 })[0]).toMatch(/^idleTimeoutMs/);
  });

  it('accepts the limits themselves, and defaults the idle timeout to 60 s (0 = never)', () => {
    const r = parseWorkload({
      requests: WORKLOAD_LIMITS.requests,
      maxConcurrency: WORKLOAD_LIMITS.concurrency,
      prompts: { type: 'synthetic', inputLen: WORKLOAD_LIMITS.tokens, outputLen: 1 },
      timeoutMs: WORKLOAD_LIMITS.timerMs,
    });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.idleTimeoutMs).toBe(60_000);
    const none = parseWorkload({ ...base, idleTimeoutMs: 0 });
    expect(none.ok && none.value.idleTimeoutMs).toBe(0);
  });
});

describe('a trace replay workload', () => {
  const trace = { type: 'trace', path: 'conv.jsonl' } as const;
  it('needs no request count (the trace has it) and fills its defaults', () => {
    const r = parseWorkload({ prompts: trace });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    expect(r.value.prompts).toEqual({
      type: 'trace',
      path: 'conv.jsonl',
      format: 'auto',
      speedup: 1,
      blockTokens: 512,
      maxLagMs: 10,
      force: 'ignore_eos',
    });
    expect(r.value.requests).toBeUndefined();
  });

  it('refuses arrival settings of its own, and a window that ends before it starts', () => {
    const r = parseWorkload({
      rate: 5,
      arrival: 'constant',
      prompts: { ...trace, startS: 10, endS: 5 },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.map((e) => e.path).sort()).toEqual(['arrival', 'prompts.endS', 'rate']);
    expect(r.error.find((e) => e.path === 'rate')!.message).toBe(
      'a trace replay takes its arrival times from the trace (speed it up with prompts.speedup, --speedup)',
    );
    expect(parseWorkload({ prompts: { ...trace, speedup: 0 } }).ok).toBe(false);
  });
});
