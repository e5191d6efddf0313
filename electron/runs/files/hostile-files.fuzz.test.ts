// A run file is a trust boundary (issue 24 points 3 and 7): a real run file (a simulator run) with
// one request line made hostile — a per-event count or a usage up to 2^63, a time of 5e12 ms, event
// times out of order, an output or max_tokens count past 2^53 — with or without its summary line,
// is read (parseRunText and the streamed reader), listed, opened, exported as CSV and vLLM JSON and
// made into a report's data without throwing and without an allocation sized by the number; a line
// no stream can produce is refused and the file marked damaged, the good lines kept.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportData } from '../../../shared/report/report-data.ts';
import { EV_CONTENT } from '../../../shared/request.ts';
import { parseRunText } from '../../../shared/runs/run-file/parse.ts';
import type { RunRequestLine } from '../../../shared/runs/file/line-schema.ts';
import { eventTokensLimit } from '../../../shared/stats/token-bounds.ts';
import { startSim, type SimServer } from '../../sim/index.ts';
import { runAgainst } from '../../testing/runs.ts';
import { readRunFile } from './run-file.ts';
import { RunLibrary } from './run-library.ts';

let sim: SimServer;
let lines: string[];
/** Every folder the test made, removed at the end. */
const made: string[] = [];
const scratch = (): string => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'tokenscope-hostile-'));
  made.push(d);
  return d;
};
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  const file = path.join(scratch(), 'base.jsonl');
  await runAgainst(
    sim,
    {
      requests: 6,
      rate: 'inf',
      seed: 3,
      warmup: 0,
      testRequest: false,
      maxConcurrency: 3,
      prompts: { type: 'synthetic', inputLen: { type: 'uniform', min: 8, max: 16 }, outputLen: 12 },
    },
    { outFile: file },
  );
  lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}, 60_000);
afterAll(async () => {
  await sim.close();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

type Mutation =
  | { kind: 'tok'; v: number }
  | { kind: 'usage'; v: number }
  | { kind: 'time'; v: number }
  | { kind: 'order' }
  | { kind: 'output'; v: number }
  | { kind: 'max'; v: number };

const big = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 63n }).map((b) => Number(b)),
  fc.constantFrom(300_000_000, 5e9, 5e12, 2 ** 53 + 2, 1e300, 0xffff_ffff),
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  big.map((v) => ({ kind: 'tok' as const, v })),
  big.map((v) => ({ kind: 'usage' as const, v })),
  big.map((v) => ({ kind: 'time' as const, v })),
  fc.constant({ kind: 'order' as const }),
  big.map((v) => ({ kind: 'output' as const, v })),
  big.map((v) => ({ kind: 'max' as const, v })),
);

/** Applies `m` to the request line `l`; whether the reader must refuse the line. */
function mutate(l: RunRequestLine, m: Mutation): boolean {
  const content = l.events.f.findIndex((f) => (f & EV_CONTENT) !== 0);
  switch (m.kind) {
    case 'tok':
      l.events.tok[content + 1] = m.v;
      return (
        !Number.isSafeInteger(m.v) || m.v > 0xffff_ffff || m.v > eventTokensLimit(l.expectedOutputTokens)
      );
    case 'usage':
      l.usage = { promptTokens: 5, completionTokens: m.v, totalTokens: m.v };
      return false; // a usage is checked when the numbers are computed, not refused
    case 'time':
      l.startedMs = m.v;
      return m.v > 1e10;
    case 'order':
      [l.events.t[content], l.events.t[content + 1]] = [l.events.t[content + 1]! + 5, l.events.t[content]!];
      return true;
    case 'output':
      l.outputTokens = m.v;
      return m.v > Number.MAX_SAFE_INTEGER;
    case 'max':
      l.expectedOutputTokens = m.v;
      // The line's own counts (12 a request) stay within any max_tokens ≥ 1.
      return m.v > Number.MAX_SAFE_INTEGER;
  }
}

async function everything(dir: string, name: string) {
  const lib = new RunLibrary(dir);
  const list = await lib.list();
  expect(list.skipped).toEqual([]);
  expect(list.runs.map((r) => r.key)).toEqual([name]);
  const d = await lib.open(name);
  const csv = await lib.export(name, 'csv');
  const vllm = await lib.export(name, 'vllm-detailed');
  const report = buildReportData({ runs: [d], compare: null, tokenscopeVersion: 't', generatedAtWall: 0 });
  expect(report.ok).toBe(true);
  return { d, csv, vllm, entry: list.runs[0]! };
}

describe('hostile numbers in a run file', () => {
  it('fuzz: read, list, open, CSV, vLLM export and report data never throw; impossible lines refused', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, fc.integer({ min: 1, max: 6 }), fc.boolean(), async (m, at, keepSummary) => {
        const parsed = lines.map((l) => JSON.parse(l) as { type: string });
        const line = parsed[at] as RunRequestLine;
        expect(line.type).toBe('request');
        const refused = mutate(line, m);
        const out = parsed.filter((p) => keepSummary || p.type !== 'summary').map((p) => JSON.stringify(p));
        const text = out.join('\n') + '\n';
        const r = parseRunText(text);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.value.requests.length).toBe(refused ? 5 : 6);
        if (refused)
          expect(r.value.problems.join('\n')).toMatch(/line \d+: (bad request line|request \d+ cannot be)/);
        const dir = scratch();
        const file = path.join(dir, 'run.jsonl');
        writeFileSync(file, text);
        const streamed = await readRunFile(file);
        expect(streamed.ok && streamed.value.requests.length).toBe(r.value.requests.length);
        const { d, csv } = await everything(dir, 'run.jsonl');
        expect(d.lines!.length).toBe(r.value.requests.length);
        expect(csv.content.split('\n').length).toBeGreaterThanOrEqual(r.value.requests.length + 1);
        for (const v of Object.values(d.summary.vllm))
          if (typeof v === 'number') expect(Number.isNaN(v) || Number.isFinite(v)).toBe(true);
      }),
      { numRuns: 25, seed: 24 },
    );
  }, 120_000);

  it('events.tok[3] = 300000000 in a file without its summary: listed, opened, exported — the line refused', async () => {
    const parsed = lines.map((l) => JSON.parse(l) as RunRequestLine & { type: string });
    const l = parsed[2]!;
    l.events.tok[3] = 300_000_000;
    const dir = scratch();
    writeFileSync(
      path.join(dir, 'run.jsonl'),
      parsed
        .filter((p) => (p as { type: string }).type !== 'summary')
        .map((p) => JSON.stringify(p))
        .join('\n') + '\n',
    );
    const { d, entry } = await everything(dir, 'run.jsonl');
    expect(entry.damage).toMatch(/1 request line with values no stream produces refused/);
    expect(d.problems.join('\n')).toMatch(
      /line 3: request \d+ cannot be a stream's: event 3: one event claimed 300000000 tokens/,
    );
    expect(d.summary.vllm.completed).toBe(5);
  });

  it('event times out of order and a request time of 5e12 ms: refused with the reason, not an internal error', () => {
    const parsed = lines.map((l) => JSON.parse(l) as RunRequestLine & { type: string });
    const a = parsed[1]!;
    [a.events.t[1], a.events.t[2]] = [a.events.t[2]! + 18.91, a.events.t[1]!];
    parsed[2]!.startedMs = 5e12;
    const r = parseRunText(parsed.map((p) => JSON.stringify(p)).join('\n') + '\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.problems.join('\n')).toMatch(/line 2: .*event times out of order/);
    expect(r.value.problems.join('\n')).toMatch(/line 3: bad request line \(startedMs: /);
    expect(r.value.damage).toBe('1 request line with values no stream produces refused');
    expect(r.value.requests.length).toBe(4);
  });
});
