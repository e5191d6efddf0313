import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { EV_CONTENT, EV_TOKENS_EXACT } from '../../shared/request.ts';
import { arrivalTimes } from '../../shared/runs/workload/arrivals.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import { summarizeRunLines } from '../../shared/runs/summary/summarize-run.ts';
import { importVllmText, toVllmResult } from '../../shared/runs/import/vllm-format.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { readRunFile } from './files/run-file.ts';
import { arrivalSpecOf } from './run-options.ts';
import { npMean, npPercentile, npStd, runAgainst, tmpDir, workload } from '../testing/runs.ts';

let sim: SimServer;
let faulty: SimServer;
const dir = tmpDir();

beforeAll(async () => {
  const fast = { port: 0, decodeStepMs: 3, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 };
  sim = await startSim({ ...fast, seed: 5 });
  // A quarter of the requests fail mid-stream after 2 tokens: they have a TTFT and gaps that must not count.
  faulty = await startSim({ ...fast, seed: 6, fault: 'error-midstream:2', faultRate: 0.25 });
});
afterAll(async () => {
  await sim.close();
  await faulty.close();
});

// ---- the test's own recomputation, from the raw per-request records, by vLLM's definitions ----
const contentIdx = (l: RunRequestLine): number[] =>
  l.events.f.flatMap((f, i) => ((f & EV_CONTENT) !== 0 ? [i] : []));
const ttftOf = (l: RunRequestLine): number => l.events.t[contentIdx(l)[0]!]!;
const gapsOf = (l: RunRequestLine): number[] => {
  const t = contentIdx(l).map((i) => l.events.t[i]!);
  return t.slice(1).map((x, k) => x - t[k]!);
};
/** Output tokens: exact per event when every content event says so, else the server's usage, else 1 per event. */
const tokensOf = (l: RunRequestLine): number => {
  const c = contentIdx(l);
  const sum = c.reduce((a, i) => a + l.events.tok[i]!, 0);
  if (c.length > 0 && c.every((i) => (l.events.f[i]! & EV_TOKENS_EXACT) !== 0))
    return Math.max(sum, l.usage?.completionTokens ?? 0);
  return l.usage?.completionTokens ?? sum;
};

describe('a run against the simulator', () => {
  const out = path.join(dir, 'main.jsonl');
  let r: Awaited<ReturnType<typeof runAgainst>>;
  beforeAll(async () => {
    r = await runAgainst(
      faulty,
      {
        requests: 24,
        maxConcurrency: 3,
        warmup: 2,
        seed: 9,
        prompts: {
          type: 'synthetic',
          inputLen: { type: 'uniform', min: 8, max: 24 },
          outputLen: { type: 'uniform', min: 3, max: 12 },
        },
        slo: { e2elMs: 1e6 },
      },
      { outFile: out },
    );
  });

  it('records every request in the file, reopened with the same summary', async () => {
    expect(r.lines).toHaveLength(26);
    const f = await readRunFile(out);
    expect(f.ok).toBe(true);
    if (!f.ok) return;
    expect(f.value.partial).toBe(false);
    expect(f.value.problems).toEqual([]);
    expect(f.value.requests.map((l) => l.id).sort()).toEqual(r.lines.map((l) => l.id).sort());
    expect(new Set(f.value.requests.map((l) => l.id)).size).toBe(26);
    expect(f.value.requests.filter((l) => l.warmup)).toHaveLength(2);
    expect(f.value.summary).toEqual(JSON.parse(JSON.stringify(r.summary)));
    // and recomputing from the lines gives the same numbers again
    expect(
      summarizeRunLines(f.value.header, f.value.requests, {
        durationS: r.summary.vllm.duration,
        selfCheck: r.summary.selfCheck,
      }),
    ).toEqual(f.value.summary);
    expect(JSON.stringify(f.value.header)).not.toMatch(/apiKey|authorization/i);
  });

  it('summary numbers equal an independent recomputation from the raw records', () => {
    const measured = r.lines.filter((l) => !l.warmup);
    const ok = measured.filter((l) => l.status === 'ok');
    const failed = measured.filter((l) => l.status === 'error');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((l) => l.error?.kind === 'server')).toBe(true);
    const v = r.summary.vllm;
    const dur = v.duration;
    const ttfts = ok.map(ttftOf);
    const e2els = ok.map((l) => l.phases.endMs!);
    const tpots = ok
      .filter((l) => tokensOf(l) > 1)
      .map((l) => (l.phases.endMs! - ttftOf(l)) / (tokensOf(l) - 1));
    const itls = ok.flatMap(gapsOf);
    const totalOut = ok.reduce((a, l) => a + tokensOf(l), 0);
    const totalIn = ok.reduce((a, l) => a + l.inputTokens!, 0);
    expect(v.completed).toBe(ok.length);
    expect(v.failed).toBe(failed.length);
    expect(v.total_output_tokens).toBe(totalOut);
    expect(v.total_input_tokens).toBe(totalIn);
    expect(v.request_throughput).toBeCloseTo(ok.length / dur, 9);
    expect(v.output_throughput).toBeCloseTo(totalOut / dur, 9);
    expect(v.total_token_throughput).toBeCloseTo((totalIn + totalOut) / dur, 9);
    for (const [m, xs] of [
      ['ttft', ttfts],
      ['tpot', tpots],
      ['itl', itls],
      ['e2el', e2els],
    ] as const) {
      expect(v[`mean_${m}_ms`]).toBeCloseTo(npMean(xs), 9);
      expect(v[`median_${m}_ms`]).toBeCloseTo(npPercentile(xs, 50), 9);
      expect(v[`std_${m}_ms`]).toBeCloseTo(npStd(xs), 9);
      for (const p of [90, 95, 99, 99.9]) expect(v[`p${p}_${m}_ms`]).toBeCloseTo(npPercentile(xs, p), 9);
    }
    // Peak concurrency of successful requests: the most intervals [start, start + E2E) covering any start.
    const iv = ok.map((l) => [l.startedMs, l.startedMs + l.phases.endMs!] as const);
    const peak = Math.max(...iv.map(([s]) => iv.filter(([a, b]) => a <= s && s < b).length));
    expect(v.max_concurrent_requests).toBe(peak);
    expect(v.request_goodput).toBeCloseTo(ok.length / dur, 9); // SLO e2el 1000 s: all good
    expect(r.summary.tokens.outputSource['usage-total']).toBe(ok.length);
  });

  it('holds max concurrency, and queue time is recorded apart from TTFT', () => {
    const measured = r.lines.filter((l) => !l.warmup);
    const iv = measured.map((l) => [l.startedMs, l.startedMs + l.phases.endMs!] as const);
    const peak = Math.max(...iv.map(([s]) => iv.filter(([a, b]) => a <= s && s < b).length));
    expect(peak).toBeLessThanOrEqual(3);
    expect(Math.max(...r.progress.map((p) => p.maxInFlight))).toBeLessThanOrEqual(3);
    // 24 arrive at once, 3 slots: most wait, and the wait is not in their TTFT.
    const waited = measured.filter((l) => l.queueMs > 5);
    expect(waited.length).toBeGreaterThan(12);
    expect(r.summary.stats.client_queue_time!.max!).toBeGreaterThan(r.summary.stats.ttft!.max! * 2);
    for (const l of measured) expect(l.queueMs).toBeCloseTo(l.startedMs - l.arrivedMs, 2);
  });

  it('goodput under SLOs the user sets (recomputed with another SLO)', () => {
    const ok = r.lines.filter((l) => !l.warmup && l.status === 'ok');
    const tpotOr0 = (l: RunRequestLine): number =>
      tokensOf(l) > 1 ? (l.phases.endMs! - ttftOf(l)) / (tokensOf(l) - 1) : 0;
    const slo = npPercentile(ok.map(tpotOr0), 50);
    const good = ok.filter((l) => tpotOr0(l) <= slo).length;
    const s = summarizeRunLines(
      { ...r.header, workload: { ...r.header.workload, slo: { tpotMs: slo } } },
      r.lines,
      { durationS: r.summary.vllm.duration },
    );
    expect(s.goodRequests).toBe(good);
    expect(s.vllm.request_goodput).toBeCloseTo(good / r.summary.vllm.duration, 9);
  });

  it('reports progress to the end', () => {
    const last = r.progress[r.progress.length - 1]!;
    expect(last.phase).toBe('done');
    expect(last.completed + last.failed).toBe(24);
    expect(last.fraction).toBe(1);
    expect(last.live.ttft?.count).toBe(r.summary.vllm.completed);
    expect(r.progress.some((p) => p.phase === 'warmup')).toBe(true);
  });

  it('a vLLM-format export re-imported gives the same summary (under vLLM’s rules)', () => {
    const json = JSON.stringify(toVllmResult(r.header, r.lines, r.summary, { detailed: true }));
    const back = importVllmText(json);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    const s = back.value.runs[0]!.summary;
    // The export is the run re-derived under vLLM's per-request rules (definitions.ts): compared
    // with that, every key comes back. (The mid-stream error events of this run are successes there.)
    const native = summarizeRunLines(r.header, r.lines, {
      durationS: r.summary.vllm.duration,
      definitions: 'vllm',
    });
    expect(native.vllm.completed).toBeGreaterThan(r.summary.vllm.completed);
    expect(s.definitions).toBe('vllm');
    const keys = Object.keys(native.vllm).filter((k) => k !== 'request_goodput');
    expect(keys.length).toBeGreaterThan(30);
    for (const k of keys) expect(s.vllm[k], k).toBeCloseTo(native.vllm[k]!, 6);
    for (const m of ['ttft', 'tpot', 'itl', 'e2el', 'client_queue_time'] as const) {
      expect(s.stats[m]!.count).toBe(native.stats[m]!.count);
      expect(s.stats[m]!.p99!).toBeCloseTo(native.stats[m]!.p99!, 6);
    }
    expect(s.vllm.request_goodput).toBeCloseTo(native.vllm.request_goodput!, 9);
    // The SLOs and the error kinds come back with it (vLLM's format has a place for neither).
    expect(s.slo).toEqual(r.summary.slo);
    expect(s.errors).toEqual(native.errors);
    expect(s.vllm.p50_ttft_ms).toBeCloseTo(native.stats.ttft!.median, 6);
  });
});

describe('schedules, modes and failures', () => {
  it('follows the arrival schedule and replays identically with the same seed', async () => {
    const input = {
      requests: 12,
      rate: 200,
      seed: 4,
      prompts: {
        type: 'synthetic' as const,
        inputLen: { type: 'uniform' as const, min: 5, max: 40 },
        outputLen: 3,
      },
    };
    const a = await runAgainst(sim, input);
    const b = await runAgainst(sim, input);
    const plan = Array.from(arrivalTimes(arrivalSpecOf(workload(input)), 12)).map(
      (x) => Math.round(x * 1000) / 1000,
    );
    const bySeq = (x: typeof a) => [...x.lines].sort((p, q) => p.seq - q.seq);
    expect(bySeq(a).map((l) => l.scheduledMs)).toEqual(plan);
    expect(bySeq(a).map((l) => l.inputTokens)).toEqual(bySeq(b).map((l) => l.inputTokens)); // same prompts
    for (const l of a.lines) expect(l.arrivedMs).toBeGreaterThanOrEqual(l.scheduledMs!);
  });

  it('hands requests to the I/O thread ahead: each is sent at its planned time, not before', async () => {
    const r = await runAgainst(sim, {
      requests: 30,
      rate: 100,
      seed: 2,
      prompts: { type: 'synthetic', inputLen: 16, outputLen: 2 },
    });
    expect(r.lines.length).toBe(30);
    for (const l of r.lines) {
      // Sent by the I/O thread at its instant (its clock's offset is measured: a few µs of slack).
      expect(l.sentMs!).toBeGreaterThanOrEqual(l.scheduledMs! - 0.05);
      expect(l.lagMs!).toBeGreaterThanOrEqual(-0.05);
      // The line's start is that send, and it arrived on time (the loop was never behind).
      expect(l.startedMs).toBeCloseTo(l.sentMs!, 2);
      expect(l.arrivedMs).toBe(l.scheduledMs);
    }
    expect(r.summary.selfCheck?.scheduleLagP99Ms).toBeGreaterThanOrEqual(0);
  });

  it('cancel with requests handed over and not yet due: those were never sent, nor counted', async () => {
    const ac = new AbortController();
    // 5 req/s: at the first one's end the next ones wait in the I/O thread for their time.
    const r = await runAgainst(
      sim,
      { requests: 20, rate: 5, seed: 1, prompts: { type: 'synthetic', inputLen: 8, outputLen: 2 } },
      { signal: ac.signal, onRequestDone: () => ac.abort() },
    );
    expect(r.cancelled).toBe(true);
    expect(r.lines.length).toBeGreaterThanOrEqual(1);
    expect(r.lines.length).toBeLessThan(4);
    for (const l of r.lines) expect(l.sentMs).toBeDefined();
    expect(r.summary.vllm.failed).toBe(0);
  });

  it('a duration run at rate inf is a closed loop at max concurrency', async () => {
    const r = await runAgainst(sim, {
      durationS: 0.3,
      maxConcurrency: 2,
      prompts: { type: 'synthetic', inputLen: 8, outputLen: 4 },
    });
    expect(r.lines.length).toBeGreaterThan(3);
    // Closed loop: a request arrives when a slot frees, so it never waits for one. Its queue time
    // is only the event loop's turn (well under 1 ms when idle, a few ms on a loaded CI box).
    // Had the 3rd+ requests arrived at once (open loop), each would wait about a whole request
    // for a slot: so the bound is the shortest request's own duration, not a fixed millisecond.
    const shortest = Math.min(...r.lines.map((l) => l.e2eMs ?? Infinity));
    for (const l of r.lines) {
      expect(l.arrivedMs).toBeLessThan(300);
      expect(l.queueMs).toBeLessThan(shortest);
    }
    expect(r.lines.filter((l) => l.queueMs < 1).length).toBeGreaterThan(r.lines.length / 2);
    expect(r.summary.vllm.max_concurrent_requests).toBeLessThanOrEqual(2);
  });

  it('exact per-event tokens with vLLM continuous usage', async () => {
    const r = await runAgainst(sim, {
      requests: 4,
      continuousUsage: true,
      prompts: { type: 'synthetic', inputLen: 8, outputLen: 6 },
    });
    expect(r.summary.tokens.outputSource['per-event']).toBe(4);
    expect(r.summary.vllm.total_output_tokens).toBe(24);
  });

  it('cancel: stops scheduling, aborts in-flight requests, keeps what finished', async () => {
    const ac = new AbortController();
    const out = path.join(dir, 'cancelled.jsonl');
    const r = await runAgainst(
      sim,
      // Lengths that differ: the two in flight (started together at the zero) do not end together,
      // so one is still streaming when the other's end cancels the run.
      {
        requests: 40,
        maxConcurrency: 2,
        seed: 3,
        prompts: { type: 'synthetic', inputLen: 8, outputLen: { type: 'uniform', min: 4, max: 120 } },
      },
      {
        signal: ac.signal,
        outFile: out,
        onRequestDone: () => ac.abort(),
      },
    );
    expect(r.cancelled).toBe(true);
    expect(r.summary.cancelled).toBe(true);
    expect(r.lines.length).toBeLessThan(40);
    expect(r.summary.cancelledRequests).toBeGreaterThanOrEqual(1);
    expect(r.summary.vllm.failed).toBe(0); // the user's cancel is not a server failure
    const f = await readRunFile(out);
    expect(f.ok && f.value.summary.cancelled).toBe(true);
  });

  it('an unreachable target (no test request): every request fails, classified', async () => {
    const r = await runAgainst('http://127.0.0.1:1', {
      testRequest: false,
      requests: 3,
      prompts: { type: 'synthetic', inputLen: 4, outputLen: 2 },
    });
    expect(r.summary.vllm.completed).toBe(0);
    expect(r.summary.vllm.failed).toBe(3);
    expect(r.summary.errors).toEqual({ 'network/refused': 3 });
  });
});
