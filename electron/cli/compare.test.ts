/**
 * `tokenscope compare` as a user runs it: two real runs against the simulator (headless
 * `tokenscope run`, different concurrency), compared as text and JSON; a run against its own vLLM
 * export (every number equal: the formats agree); the CI gate's exit codes; unreadable input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toVllmResult } from '../../shared/runs/import/vllm-format.ts';
import { runCli } from '../testing/cli.ts';
import { readRunFile } from '../runs/files/run-file.ts';
import { tmpDir } from '../testing/runs.ts';
import { startSim, type SimServer } from '../sim/index.ts';

const dir = tmpDir('tokenscope-compare-');
const fast = path.join(dir, 'c8.jsonl');
const slow = path.join(dir, 'c2.jsonl');
const exported = path.join(dir, 'c8.vllm.json');
const faulty = path.join(dir, 'c8-500s.jsonl');
let sim: SimServer;
let faultySim: SimServer;

type Json = {
  runs: { id: string; label: string }[];
  workloadDifferences: string[];
  rows: {
    metric: string;
    values: (number | null)[];
    relative: (number | null)[];
    interval: ([number, number] | null)[];
    verdict: (string | null)[];
    unreliable: boolean[];
    ranges: ([number, number | null] | null)[];
  }[];
  regressions?: { run: string; metric: string; interval: [number, number] | null }[];
  failures: { id: string; completed: number; failed: number }[];
  failureBanner: string | null;
};

beforeAll(async () => {
  // 10 ms per decode step plus 2 ms per sequence in the batch: concurrency trades latency for throughput.
  sim = await startSim({ port: 0, decodeStepMs: 10, decodeStepPerSeqMs: 2, prefillMsPerToken: 0 });
  // The same server, but two in five requests answered with HTTP 500 (seeded: the same ones every run).
  faultySim = await startSim({
    port: 0,
    decodeStepMs: 10,
    decodeStepPerSeqMs: 2,
    prefillMsPerToken: 0,
    fault: 'http-500',
    faultRate: 0.4,
  });
  for (const [out, c, name, url] of [
    [fast, '8', 'eight at once', sim.url],
    [slow, '2', 'two at once', sim.url],
    [faulty, '8', 'eight at once, 500s', faultySim.url],
  ] as const) {
    const r = await runCli(
      [
        'run',
        '--target',
        url,
        '-n',
        '16',
        '-c',
        c,
        '--input-len',
        '16',
        '--output-len',
        '24',
        '--name',
        name,
        '--out',
        out,
        '-q',
      ],
      40_000,
    );
    expect(r.code, r.stderr).toBe(0);
  }
  const r = await readRunFile(fast);
  if (!r.ok) throw new Error(r.error);
  writeFileSync(exported, JSON.stringify(toVllmResult(r.value.header, r.value.requests, r.value.summary)));
}, 90_000);

afterAll(async () => {
  await sim.close();
  await faultySim.close();
});

describe('tokenscope compare', () => {
  it('prints both runs against the first, with direction-aware verdicts', async () => {
    const r = await runCli(['compare', fast, slow]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^A {2}eight at once · tokenscope-sim · http:\/\/127\.0\.0\.1:\d+/m);
    expect(r.stdout).toMatch(/^B {2}two at once/m);
    expect(r.stdout).toContain('The workloads differ: max concurrency 8 vs 2.');
    const line = (label: string) => r.stdout.split('\n').find((l) => l.trimStart().startsWith(label)) ?? '';
    // A quarter of the concurrency: less throughput (worse), shorter TPOT (better). Both have an
    // interval (a throughput's resamples each request's share of the run's time) that holds the change.
    expect(line('Output token throughput')).toMatch(
      /tok\/s\s+\d[\d.]* tok\/s\s+−\d[\d.]*%\s+\[−[\d.]+%, −[\d.]+%\]\s+↓ worse$/,
    );
    expect(line('TPOT p50')).toMatch(/ms\s+\d[\d.]* ms\s+−\d[\d.]*%\s+\[−[\d.]+%, −[\d.]+%\]\s+↑ better$/);
    // 16 requests: a p99 rests on none above it, so it says so instead of a tight false interval.
    expect(line('TPOT p99')).toMatch(/ms\s+[−+][\d.]+%\s+too few requests for p99$/);
    // The counts carry no verdict (the failure rate does, with its interval); the peak has no interval.
    expect(line('Successful requests')).toMatch(/16\s+16\s+±0\.00%$/);
    expect(line('Failure rate')).toMatch(
      /0\.00 %\s+0\.00 %\s+±0\.00 pp\s+= same$/, // no failures on either side: no interval to print
    );
    expect(r.stdout).toContain('95 % interval of the change');
    expect(r.stdout).not.toContain('Failure rates:'); // no run failed: no banner
    // Both runs watched the simulator's /metrics. Their queue times sit in vLLM's first queue
    // bucket (0, 0.3 s]: written and compared as that bucket, not as two interpolated midpoints.
    expect(line('Server queue time p50')).toMatch(/0–300 ms\s+0–300 ms\s+same bucket\s+= same$/);
  }, 20_000);

  it('--json has the values, relative changes and verdicts; a run equals its own vLLM export', async () => {
    const r = await runCli(['compare', fast, slow, exported, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as Json;
    expect(j.runs.map((x) => x.id)).toEqual(['A', 'B', 'C']);
    const row = (m: string) => j.rows.find((x) => x.metric === m)!;
    const tput = row('out-tput');
    expect(tput.values[1]!).toBeLessThan(tput.values[0]!);
    expect(tput.relative[1]).toBeCloseTo((tput.values[1]! - tput.values[0]!) / tput.values[0]!, 12);
    expect(tput.verdict).toEqual([null, 'worse', 'same']);
    // The vLLM export of A carries A's numbers exactly: every relative change against A is 0.
    for (const x of j.rows) {
      if (x.values[2] === null || x.values[0] === null || x.values[0] === 0) continue;
      expect(x.relative[2], x.metric).toBeCloseTo(0, 9);
    }
    expect(row('ttft-p99').values[2]).toBe(row('ttft-p99').values[0]);
    // The server side: A and B watched the simulator, the vLLM export (C) carries none of it.
    expect(row('srv-queue-p50').ranges).toEqual([[0, 300], [0, 300], null]);
    expect(row('srv-queue-p50').relative).toEqual([null, null, null]);
    expect(row('srv-queue-p50').verdict).toEqual([null, 'same', null]);
  }, 20_000);

  it('--markdown and --csv: the same rows to paste into an issue or load into a spreadsheet', async () => {
    const md = await runCli(['compare', fast, slow, '--markdown']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/^- \*\*A\*\* \(baseline\): eight at once · `tokenscope-sim` · http/m);
    expect(md.stdout).toContain('> The workloads differ: max concurrency 8 vs 2.');
    expect(md.stdout).toMatch(
      /^\| TPOT p50 \| [\d.]+ ms \| [\d.]+ ms \| −[\d.]+% \[−[\d.]+%, −[\d.]+%\] \(better\) \|$/m,
    );
    const csv = await runCli(['compare', fast, slow, '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'metric_id,metric,unit,better,change,A,B,B_vs_A,B_ci_low,B_ci_high,B_verdict,B_unreliable,definitions',
    );
    const tput = lines.find((l) => l.startsWith('out-tput,'))!.split(',');
    // Numbers as numbers: B's change is its own value against A's, in percent.
    expect(Number(tput[7])).toBeCloseTo(((Number(tput[6]) - Number(tput[5])) / Number(tput[5])) * 100, 4);
    expect(tput[10]).toBe('worse');
    const tpot = lines.find((l) => l.startsWith('tpot-p50,'))!.split(',');
    expect(Number(tpot[8])).toBeLessThanOrEqual(Number(tpot[7]));
    expect(Number(tpot[9])).toBeGreaterThanOrEqual(Number(tpot[7]));
    const both = await runCli(['compare', fast, slow, '--csv', '--json']);
    expect(both.code).toBe(2);
  }, 20_000);

  it('--max-regression gates: exit 1 naming what regressed, 0 within the bound', async () => {
    const strict = await runCli(['compare', fast, slow, '--max-regression', '5', '--json']);
    expect(strict.code).toBe(1);
    const j = JSON.parse(strict.stdout) as Json;
    expect(j.regressions?.map((x) => x.metric)).toContain('out-tput');
    expect(j.regressions?.every((x) => x.run === 'B')).toBe(true);
    const loose = await runCli(['compare', fast, slow, '--max-regression', '100000']);
    expect(loose.code).toBe(0);
    expect(loose.stdout).toContain(
      'No regression: no metric worse than A by more than 100000%, or failure rate up by more than 0 pp, with 95 % confidence for all rows together.',
    );
    // The peak has no interval: not gated, but said.
    expect(loose.stdout).not.toContain('Not gated');
    expect(j.regressions?.map((x) => x.metric)).not.toContain('peak-tput');
    expect((j as Json & { notGated: { metric: string }[] }).notGated.map((x) => x.metric)).toContain(
      'peak-tput',
    );
    const same = await runCli(['compare', fast, exported, '--max-regression', '0']);
    expect(same.code).toBe(0);
    // --same-within: an equivalence margin the whole interval must lie within to be "same".
    // --same-within is the equivalence margin: "same" when the whole interval lies within it. TPOT
    // mean fell by ~40 % (better); with a ±60 % margin the whole interval is inside it: same.
    const eq = await runCli(['compare', fast, slow, '--same-within', '60', '--json']);
    const ej = JSON.parse(eq.stdout) as Json & { sameWithinPct: number };
    expect(ej.sameWithinPct).toBe(60);
    const tpot = ej.rows.find((x) => x.metric === 'tpot-mean')!;
    expect(Math.max(...tpot.interval[1]!.map(Math.abs))).toBeLessThan(0.6);
    expect(tpot.verdict[1]).toBe('same');
    const dj = JSON.parse((await runCli(['compare', fast, slow, '--json'])).stdout) as Json;
    expect(dj.rows.find((x) => x.metric === 'tpot-mean')!.verdict[1]).toBe('better');
    expect((await runCli(['compare', fast, slow, '--same-within', '-1'])).code).toBe(2);
    const none = await runCli(['compare', fast, slow, '--max-regression', '5', '--replicates', '0']);
    expect(none.code).toBe(2);
  }, 60_000);

  it('failures count: 40 % HTTP 500s fail the gate, are bannered, and make throughput changes unreliable', async () => {
    // Failed requests end fast: the faulty run's latencies look fine, yet it must not pass.
    const r = await runCli(['compare', fast, faulty, '--max-regression', '20', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const j = JSON.parse(r.stdout) as Json;
    const f = j.failures[1]!;
    expect(f.failed).toBeGreaterThan(0);
    expect(f.failed + f.completed).toBe(16);
    const fail = j.rows.find((x) => x.metric === 'fail-rate')!;
    expect(fail.values[1]).toBeCloseTo((100 * f.failed) / 16, 9);
    expect(fail.verdict[1]).toBe('worse');
    expect(fail.interval[1]![0]).toBeGreaterThan(0);
    expect(j.regressions?.map((x) => x.metric)).toContain('fail-rate');
    expect(j.rows.find((x) => x.metric === 'out-tput')!.unreliable).toEqual([false, true]);
    expect(j.failureBanner).toMatch(
      /^Failure rates: A 0\.0 % \(0 of 16\) · B [\d.]+ % \(\d+ of 16\) — B differs clearly/,
    );
    const text = await runCli(['compare', fast, faulty, '--max-regression', '20']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('Failure rates: A 0.0 % (0 of 16)');
    expect(text.stdout).toMatch(
      /regression\(s\) .*: B Failure rate \+[\d.]+ pp \[\+[\d.]+ pp, \+[\d.]+ pp\]/,
    );
    expect(text.stdout).toContain('⚠ the failure rates differ');
    // A failure-rate allowance above the whole interval lets it pass the failure gate.
    const allowed = await runCli(['compare', fast, faulty, '--max-failure-increase', '100', '--json']);
    expect(allowed.code).toBe(0);
    // Without intervals (--replicates 0) the verdicts come from the values alone.
    const plain = await runCli(['compare', fast, slow, '--replicates', '0', '--json']);
    const pj = JSON.parse(plain.stdout) as Json & { intervals: unknown };
    expect(pj.intervals).toBeNull();
    expect(pj.rows.every((x) => x.interval.every((c) => c === null))).toBe(true);
    const bad = await runCli(['compare', fast, slow, '--replicates', '-1']);
    expect(bad.code).toBe(2);
  }, 90_000);

  it('an appended vLLM results file brings every result; FILE#N picks one', async () => {
    const runOf = async (f: string) => {
      const r = await readRunFile(f);
      if (!r.ok) throw new Error(r.error);
      return JSON.stringify(
        toVllmResult(r.value.header, r.value.requests, r.value.summary, { detailed: true }),
      );
    };
    const appended = path.join(dir, 'appended.json');
    writeFileSync(appended, `${await runOf(fast)}\n${await runOf(slow)}\n`);
    const both = await runCli(['compare', appended, '--json']);
    expect(both.code, both.stderr).toBe(0);
    const j = JSON.parse(both.stdout) as Omit<Json, 'runs'> & { runs: { file: string; label: string }[] };
    expect(j.runs.map((r) => r.label)).toEqual(['eight at once #1', 'two at once #2']);
    expect(j.runs.map((r) => r.file)).toEqual([`${appended}#1`, `${appended}#2`]);
    // The second result is the slower run's: its TPOT is B's, not a copy of A's.
    const tpot = j.rows.find((x) => x.metric === 'tpot-mean')!;
    expect(tpot.verdict[1]).toBe('better');
    const pick = await runCli(['compare', fast, `${appended}#2`, '--json']);
    expect(pick.code, pick.stderr).toBe(0);
    const pj = JSON.parse(pick.stdout) as Json;
    expect(pj.runs).toHaveLength(2);
    const again = await runCli(['compare', fast, `${appended}#1`, '--json']);
    const aj = JSON.parse(again.stdout) as Json;
    // Its own export: every latency change against A is 0.
    expect(aj.rows.find((x) => x.metric === 'ttft-p99')!.relative[1]).toBeCloseTo(0, 9);
    const bad = await runCli(['compare', fast, `${appended}#3`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('holds 2 results');
    const tooMany = await runCli(['compare', fast, slow, appended, appended]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/got 6 .*pick some as FILE#N/);
  }, 30_000);

  it('definitions: a vLLM result makes the comparison vLLM’s; runs are re-derived and say so; mismatches are refused', async () => {
    const j = JSON.parse((await runCli(['compare', fast, exported, '--json'])).stdout) as Omit<
      Json,
      'runs'
    > & {
      definitions: string;
      clientsNote: string | null;
      runs: { rederived: string | null }[];
    };
    expect(j.definitions).toBe('vllm');
    expect(j.runs.map((r) => r.rederived)).toEqual(['vllm', null]);
    const text = await runCli(['compare', fast, exported]);
    expect(text.stdout).toContain(
      'Definitions: vLLM bench serve (vllm) (the imported result’s) — A re-derived from its events.',
    );
    // The export was measured by Tokenscope: one client, nothing to say about clients.
    expect(text.stdout).not.toContain('Measured by different clients');
    expect(j.clientsNote).toBeNull();
    // The same file as vLLM's client writes it (no tokenscope_* keys): the clients are said.
    const foreign = path.join(dir, 'vllm-client.json');
    writeFileSync(
      foreign,
      JSON.stringify(
        Object.fromEntries(
          Object.entries(JSON.parse(readFileSync(exported, 'utf8')) as Json).filter(
            ([k]) => !k.startsWith('tokenscope_'),
          ),
        ),
      ),
    );
    const mixed = await runCli(['compare', fast, foreign]);
    expect(mixed.stdout).toMatch(
      /Measured by different clients: A by Tokenscope; B by vLLM’s benchmark client \(Python, aiohttp\)\./,
    );
    // Two Tokenscope runs: Tokenscope's own unless asked; any preset on request.
    const own = JSON.parse((await runCli(['compare', fast, slow, '--json'])).stdout) as {
      definitions: string;
    };
    expect(own.definitions).toBe('tokenscope');
    const sg = JSON.parse(
      (await runCli(['compare', fast, slow, '--definitions', 'sglang', '--json'])).stdout,
    ) as {
      definitions: string;
      runs: { rederived: string | null }[];
    };
    expect(sg.definitions).toBe('sglang');
    expect(sg.runs.map((r) => r.rederived)).toEqual(['sglang', 'sglang']);
    // Under vLLM's rules the chat role chunk is the first token: TTFT no later than Tokenscope's.
    const ttft = (x: Json) => x.rows.find((r) => r.metric === 'ttft-mean')!.values[0]!;
    const vl = JSON.parse(
      (await runCli(['compare', fast, slow, '--definitions', 'vllm', '--json'])).stdout,
    ) as Json;
    expect(ttft(vl)).toBeLessThanOrEqual(ttft(own as unknown as Json));
    // A vLLM result cannot be re-derived under another preset (it has no events): refused.
    const bad = await runCli(['compare', fast, exported, '--definitions', 'sglang']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /B is a result measured under vLLM bench serve's definitions .*--definitions vllm/,
    );
    const unknown = await runCli(['compare', fast, slow, '--definitions', 'mine']);
    expect(unknown.code).toBe(2);
  }, 60_000);

  it('refuses one file, five files, unreadable or foreign files with exit 2', async () => {
    const notRun = path.join(dir, 'x.json');
    writeFileSync(notRun, '{"hello": 1}');
    for (const args of [
      [fast],
      [fast, slow, fast, slow, fast],
      [fast, path.join(dir, 'missing.jsonl')],
      [fast, notRun],
    ]) {
      const r = await runCli(['compare', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
    const missing = await runCli(['compare', fast, path.join(dir, 'missing.jsonl')]);
    expect(missing.stderr).toContain('ENOENT');
  }, 30_000);

  it('damaged and partial files: marked and recomputed, duplicates refused, never a stack trace', async () => {
    const lines = readFileSync(fast, 'utf8').trimEnd().split('\n');
    const body = lines.slice(0, -1);
    const write = (name: string, content: string[]): string => {
      const f = path.join(dir, name);
      writeFileSync(f, content.join('\n') + '\n');
      return f;
    };
    const emptyVllm = write('empty-vllm.jsonl', [...body, '{"type":"summary","summary":{"vllm":{}}}']);
    const strings = write('strings.jsonl', [
      ...body,
      lines.at(-1)!.replace(/"completed":\d+/, '"completed":"lots"'),
    ]);
    const huge = write('huge.jsonl', [
      ...body,
      lines.at(-1)!.replace(/"mean_ttft_ms":[\d.]+/, '"mean_ttft_ms":1e999'),
    ]);
    const partial = write('partial.jsonl', body);
    const dup = write('dup.jsonl', [...body, body[1]!, lines.at(-1)!]);
    const negative = write('negative.jsonl', [
      body[0]!,
      body[1]!.replace(/"ttftMs":[\d.]+/, '"ttftMs":-5'),
      ...body.slice(2),
      lines.at(-1)!,
    ]);
    for (const f of [emptyVllm, strings, huge]) {
      const r = await runCli(['compare', fast, f]);
      expect(r.code, `${f}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(
        /\[damaged: its summary line is malformed .*recomputed from 16 request lines\]/,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const p = await runCli(['compare', fast, partial, '--json']);
    expect(p.code).toBe(0);
    const j = JSON.parse(p.stdout) as Json & { runs: { note: string | null }[] };
    expect(j.runs[0]!.note).toBeNull();
    expect(j.runs[1]!.note).toBe('partial: no summary line, recomputed from 16 request lines');
    // The recomputed numbers are the run's own: the same completed count as the sound file.
    expect(j.rows.find((r) => r.metric === 'completed')?.values).toEqual([16, 16]);
    const d = await runCli(['compare', fast, dup]);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/duplicate request lines .* not compared/);
    // A request line with an impossible (negative) time is skipped and said, the rest compared.
    const n = await runCli(['compare', fast, negative]);
    expect(n.code).toBe(0);
    expect(n.stdout).toMatch(/\[1 line skipped: line 2: bad request line \(ttftMs: .*>=0/);
  }, 30_000);
});
