/**
 * The runner's summary is summed up as requests finish (line-sink.ts, run-accumulator.ts) and the
 * lines are not kept: it must be the summary the whole lines give, every number. Real runs against
 * the simulator — faults, multi-token chunks, prefix-cache hits, warm-up, a cancel, a stream with
 * no usage whose count the server's tokenizer gives after the run (lines held to the end) — and
 * their file's lines through the summarizer as it was before (`linesSummary` below, kept verbatim:
 * JS-array outcomes, one list per metric), under Tokenscope's rules and vLLM's (`run --json`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { tmpDir, workload } from '../testing/runs.ts';
import { loadPrompts } from './prompts/prompts.ts';
import { runWorkload, type RunOptions } from './runner.ts';
import type { WorkloadInput } from '../../shared/runs/workload/workload.ts';
import { parseRunText } from '../../shared/runs/run-file/parse.ts';
import type { RunHeader, RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { RunSummary } from '../../shared/runs/summary/schema.ts';
import { finishedMs, isCancelledLine, outcomeOfLine } from '../../shared/runs/summary/outcome.ts';
import { computeRunSummary } from '../../shared/runs/summary/summary.ts';
import { byTurnOf } from '../../shared/runs/summary/by-turn.ts';
import { outcomeUnder, type DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import { replaySummaryOf } from '../../shared/runs/summary/replay-lag.ts';
import { serverPhasesSummaryOf } from '../../shared/tracing/phase-summary.ts';
import { prefixCacheOf } from '../../shared/runs/summary/prefix-cache.ts';
import { expectedHits } from '../../shared/runs/workload/prefix-groups.ts';
import { summarizeRunLines } from '../../shared/runs/summary/summarize-run.ts';
import { RunAccumulator } from '../../shared/runs/summary/run-accumulator.ts';

interface Opts {
  durationS?: number;
  cancelled: boolean;
  selfCheck: RunSummary['selfCheck'];
  definitions?: DefinitionsId;
}

/** summarize-run.ts as it was before the accumulator: every line's outcome at once, JS arrays. */
function linesSummary(header: RunHeader, lines: readonly RunRequestLine[], o: Opts): RunSummary {
  const measured = lines.filter((l) => !l.warmup);
  const kept = measured.filter((l) => !isCancelledLine(l));
  let end = 0;
  for (const l of measured) end = Math.max(end, finishedMs(l));
  const outcomes = kept.map((l) =>
    o.definitions && o.definitions !== 'tokenscope'
      ? outcomeUnder(l, o.definitions, header.target.dialect)
      : outcomeOfLine(l),
  );
  const byTurn = byTurnOf(
    outcomes,
    kept.map((l) => l.turn),
  );
  const w = header.workload;
  const summary = computeRunSummary({
    outcomes,
    definitions: o.definitions ?? 'tokenscope',
    durationS: o.durationS ?? end / 1000,
    slo: w.slo ?? null,
    config: {
      maxConcurrency: w.maxConcurrency,
      requestRate: w.rate,
      burstiness: w.burstiness,
      numPrompts: w.requests ?? null,
    },
    partial: false,
    cancelled: o.cancelled,
    cancelledRequests: measured.length - kept.length,
    warmupRequests: lines.length - measured.length,
    selfCheck: o.selfCheck,
  });
  const replay = replaySummaryOf(w, lines);
  if (replay) summary.replay = replay;
  const phases = serverPhasesSummaryOf(lines, header.clockZeroWall, false);
  if (phases) summary.serverPhases = phases;
  const src = w.prompts;
  let expected = null;
  if (src.type === 'synthetic' && src.prefixGroups && kept.length > 0) {
    const tokens = new Map<number, number>();
    let n = 0;
    for (const l of kept) {
      tokens.set(l.seq, l.inputTokens ?? 0);
      n = Math.max(n, l.seq + 1);
    }
    expected = expectedHits(src.prefixGroups, w.seed, n, (i) => tokens.get(i) ?? 0);
  }
  const cache = prefixCacheOf(
    outcomes.filter((x) => x.ok),
    expected,
  );
  if (cache) summary.prefixCache = cache;
  return byTurn ? { ...summary, byTurn } : summary;
}

let faulty: SimServer;
let noUsage: SimServer;
beforeAll(async () => {
  faulty = await startSim({
    port: 0,
    decodeStepMs: 1,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0.05,
    streamInterval: 3, // several tokens a chunk
    seed: 4,
    fault: 'error-midstream:5',
    faultRate: 0.25,
  });
  noUsage = await startSim({
    port: 0,
    decodeStepMs: 1,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
    streamInterval: 4,
    fault: 'error-midstream:14',
  });
});
afterAll(async () => {
  await faulty.close();
  await noUsage.close();
});

/** A run without kept lines (as the CLI and the app run), its file read back. */
async function runAndRead(sim: SimServer, input: WorkloadInput, over: Partial<RunOptions> = {}) {
  const out = path.join(tmpDir(), 'run.jsonl');
  const w = workload(input);
  const r = await runWorkload({
    workload: w,
    target: { url: sim.url, dialect: 'openai-chat', model: 'tokenscope-sim' },
    prompts: await loadPrompts(w.prompts, w.seed, process.cwd()),
    outFile: out,
    alsoUnder: 'vllm',
    ...over,
  });
  const parsed = parseRunText(readFileSync(out, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return { r, file: parsed.value };
}

function expectSame(
  r: { summary: RunSummary; rederived: RunSummary | null },
  file: { header: RunHeader; requests: RunRequestLine[] },
) {
  const s = r.summary;
  const o = { durationS: s.vllm.duration, cancelled: s.cancelled, selfCheck: s.selfCheck };
  expect(s).toEqual(linesSummary(file.header, file.requests, o));
  expect(r.rederived).toEqual(linesSummary(file.header, file.requests, { ...o, definitions: 'vllm' }));
  // The batch path is the accumulator fed every line: the same summary again.
  expect(summarizeRunLines(file.header, file.requests, o)).toEqual(s);
}

const prompts = {
  type: 'synthetic' as const,
  inputLen: { type: 'uniform' as const, min: 20, max: 60 },
  outputLen: { type: 'uniform' as const, min: 4, max: 30 },
  prefixGroups: { groups: 3, prefixLen: 64 },
};

describe("the runner's summary, summed up as requests finish, is the lines' summary", () => {
  it('faults, multi-token chunks, prefix-cache hits and warm-up: every number equal, and no line kept', async () => {
    const { r, file } = await runAndRead(faulty, {
      requests: 40,
      maxConcurrency: 6,
      warmup: 2,
      seed: 9,
      prompts,
      slo: { ttftMs: 30 },
    });
    expect(r.lines).toBeNull();
    const s = r.summary;
    expect(s.vllm.failed).toBeGreaterThan(0); // the faults happened
    expect(s.vllm.completed).toBeGreaterThan(0);
    expect(s.prefixCache?.hitRequests).toBeGreaterThan(0);
    expect(s.warmupRequests).toBe(2);
    // Several tokens a chunk: fewer content events than output tokens.
    const content = (l: RunRequestLine) => l.events.f.filter((f) => (f & 1) !== 0).length;
    expect(file.requests.some((l) => l.status === 'ok' && l.outputTokens > content(l) + 1)).toBe(true);
    expectSame(r, file);
  }, 60_000);

  it('a cancelled run: the requests the cancel stopped are left out alike', async () => {
    const ac = new AbortController();
    let done = 0;
    const { r, file } = await runAndRead(
      faulty,
      { requests: 60, maxConcurrency: 8, seed: 5, prompts: { ...prompts, outputLen: 60 } },
      { signal: ac.signal, onRequestDone: () => ++done === 10 && ac.abort() },
    );
    expect(r.cancelled).toBe(true);
    expect(r.summary.cancelledRequests).toBeGreaterThan(0);
    expectSame(r, file);
  }, 60_000);

  it("no usage in the stream: the lines wait for the server's token counts, then sum up alike", async () => {
    const { r, file } = await runAndRead(
      noUsage,
      {
        requests: 6,
        maxConcurrency: 2,
        prompts: { type: 'synthetic', inputLen: 8, outputLen: 40 },
        testRequest: false,
      },
      { target: { url: noUsage.url, dialect: 'openai-completions', model: 'tokenscope-sim' } },
    );
    expect(file.requests.every((l) => l.tokenizedOutputTokens === 14)).toBe(true);
    expect(r.rederived?.tokens.outputTokenized).toBe(6);
    expectSame(r, file);
  }, 60_000);

  it('an accumulator fed line by line gives the summary at any point (a partial file)', async () => {
    const { file } = await runAndRead(faulty, { requests: 12, maxConcurrency: 3, seed: 2, prompts });
    const acc = new RunAccumulator(file.header);
    const half = file.requests.slice(0, 7);
    for (const l of half) acc.add(l);
    const o = { cancelled: false, selfCheck: null }; // no duration: to the last finish seen
    expect(acc.summary(o)).toEqual(linesSummary(file.header, half, o));
  }, 60_000);
});
