import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMooncake } from '../../shared/runs/workload/trace-parse.ts';
import { summaryText } from '../../shared/runs/summary/text.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { CORPUS_DIR } from '../testing/corpus.ts';
import { npPercentile, runAgainst, tmpDir } from '../testing/runs.ts';
import { readRunFile } from './files/run-file.ts';

const TRACE = path.join(CORPUS_DIR, 'traces', 'mooncake-conversation-head.jsonl');
const SPEEDUP = 50;
let sim: SimServer;

beforeAll(async () => {
  sim = await startSim({ port: 0, seed: 2, decodeStepMs: 2, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(async () => {
  await sim.close();
});

describe('a trace replayed against the simulator', () => {
  const out = path.join(tmpDir('tokenscope-trace-'), 'replay.jsonl');
  let r: Awaited<ReturnType<typeof runAgainst>>;
  const parsed = parseMooncake(readFileSync(TRACE, 'utf8'), { blockTokens: 512 });
  if (!parsed.ok) throw new Error('bad corpus');
  const rows = parsed.value.rows;

  beforeAll(async () => {
    // 14 real Mooncake requests (3 s of trace) at ×50: 60 ms of schedule; outputs capped short.
    r = await runAgainst(
      sim,
      {
        prompts: { type: 'trace', path: TRACE, speedup: SPEEDUP, maxLagMs: 1000 },
        sampling: { maxTokens: 4 },
        testRequest: false,
        warmup: 1,
      },
      { outFile: out },
    );
  }, 60_000);

  it("sends every request at the trace's time divided by the speedup", () => {
    const measured = r.lines.filter((l) => !l.warmup).sort((a, b) => a.seq - b.seq);
    expect(measured).toHaveLength(14);
    expect(measured.every((l) => l.status === 'ok')).toBe(true);
    for (const l of measured) expect(l.scheduledMs, `request ${l.seq}`).toBe(rows[l.seq]!.atMs / SPEEDUP);
    expect(measured[13]!.scheduledMs).toBe(60);
    // The server saw the trace's prompt lengths (the simulator's usage: the chat template added).
    for (const l of measured) expect(l.inputTokens! - rows[l.seq]!.inputTokens).toBe(10);
  });

  it('records each request’s lag (actual − planned send) and sums it up', () => {
    const measured = r.lines.filter((l) => !l.warmup);
    for (const l of measured) {
      expect(l.lagMs).toBeCloseTo(l.sentMs! - l.scheduledMs!, 3);
      expect(l.lagMs!).toBeGreaterThanOrEqual(0);
    }
    expect(r.lines.find((l) => l.warmup)!.lagMs).toBeUndefined();
    const lags = measured.map((l) => l.lagMs!);
    const rep = r.summary.replay!;
    expect(rep.requests).toBe(14);
    expect(rep.speedup).toBe(SPEEDUP);
    expect(rep.lagP50Ms).toBeCloseTo(npPercentile(lags, 50), 9);
    expect(rep.lagP99Ms).toBeCloseTo(npPercentile(lags, 99), 9);
    expect(rep.lagMaxMs).toBe(Math.max(...lags));
    expect(rep.boundMs).toBe(1000);
    expect(rep.flagged).toBe(rep.lagP99Ms > 1000);
    expect(summaryText(r.summary)).toContain('Schedule lag p50 / p99 / max (ms):');
  });

  it('reopens from its file with the same replay numbers', async () => {
    const f = await readRunFile(out);
    if (!f.ok) throw new Error(f.error);
    expect(f.value.summary.replay).toEqual(r.summary.replay);
    expect(f.value.header.workload.prompts).toMatchObject({ type: 'trace', speedup: SPEEDUP });
  });
});

describe('a replay held to a bound it cannot meet', () => {
  it('is flagged', async () => {
    // Ten requests planned for the same instant leave one after another: lag > 0 µs for all but one.
    const r = await runAgainst(sim, {
      prompts: { type: 'trace', path: TRACE, speedup: 1000, maxLagMs: 0 },
      sampling: { maxTokens: 2 },
      testRequest: false,
      requests: 10,
    });
    expect(r.lines).toHaveLength(10);
    expect(r.summary.replay!.requests).toBe(10);
    expect(r.summary.replay!.lagP99Ms).toBeGreaterThan(0);
    expect(r.summary.replay!.flagged).toBe(true);
    expect(summaryText(r.summary)).toContain('Replay on schedule:                      NO — lag p99 > 0 ms');
  }, 60_000);
});
