/**
 * `tokenscope probe` as a user runs it (a real process, real HTTP over loopback to simulators):
 * one request live then summed up, --json for scripts, a failing server's exit code, and the same
 * request to two servers at the same moment, compared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { startCorpusServer, type CorpusServer } from '../testing/corpus-server.ts';

let fast: SimServer;
let slow: SimServer;
let failing: SimServer;
/** llama.cpp's real bytes, two events per socket write 40 ms apart: half the gaps coalesced. */
let coalescing: CorpusServer;

beforeAll(async () => {
  fast = await startSim({ port: 0, decodeStepMs: 5, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  slow = await startSim({ port: 0, decodeStepMs: 20, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  failing = await startSim({ port: 0, fault: 'http-503' });
  // Role chunk alone, then the six content chunks two by two, then the finish chunk and [DONE].
  coalescing = await startCorpusServer('llamacpp-chat.sse', [1, 2, 2, 2], 40);
});
afterAll(async () => {
  await Promise.all([fast.close(), slow.close(), failing.close(), coalescing.close()]);
});

type ProbeJson = {
  url: string;
  ttftMs: number;
  outputTokens: number;
  itlMs: number[];
  itlPerTokenMs: number[];
  itlEveryGapMs: number[];
  coalescedGaps: number;
  error: unknown;
};

/** "ITL per chunk mean 1.00 ms · p50 2.00 ms …" → the p50 in ms. */
const p50Of = (line: string | undefined): number => Number(/p50 ([\d.]+) ms/.exec(line ?? '')?.[1]);

describe('tokenscope probe', () => {
  it('prints every event as it arrives, then the summary; exit 0', async () => {
    const r = await runCli(['probe', fast.url, '-n', '6', '--continuous-usage']);
    expect(r.code, r.stderr).toBe(0);
    // The endpoint it posted to, not the base URL it was given.
    expect(r.stdout).toContain(`→ POST ${fast.url}/v1/chat/completions (openai-chat, model tokenscope-sim)`);
    // Six content events of one exact token each, then usage and the end.
    expect(r.stdout.match(/^ +[\d.]+ ms .* 1 tok /gm)).toHaveLength(6);
    // The end marker: written in the same tick as the last token and usage, it usually arrives in
    // their socket read, and is then marked coalesced too.
    expect(r.stdout).toMatch(/\[end(, coalesced)?\]$/m);
    expect(r.stdout).toMatch(/^output tokens 6 \(exact, per event\)$/m);
    expect(r.stdout).toMatch(/^TTFT +[\d.]+ ms$/m);
  });

  it('--json: one object for scripts; a failing server exits 1 with its class', async () => {
    const ok = await runCli(['probe', fast.url, '-n', '5', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    const j = JSON.parse(ok.stdout) as ProbeJson;
    expect(j.outputTokens).toBe(5);
    // Every gap is 4; the measured ones fewer when a loaded machine read two tokens at once.
    expect(j.itlEveryGapMs).toHaveLength(4);
    expect(j.itlMs.length).toBe(4 - j.coalescedGaps);
    expect(j.error).toBeNull();
    const bad = await runCli(['probe', failing.url, '-m', 'tokenscope-sim', '-n', '5']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^ERROR +http\/status: /m);
    const usage = await runCli(['probe', fast.url, '-H', 'no-colon']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--header must be "Name: value"/);
  });

  it('two URLs: the same request to both at once, events marked A and B, then side by side', async () => {
    const r = await runCli(['probe', fast.url, slow.url, '-n', '8', '--continuous-usage']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `A → POST ${fast.url}/v1/chat/completions (openai-chat, model tokenscope-sim)`,
    );
    expect(r.stdout).toContain(
      `B → POST ${slow.url}/v1/chat/completions (openai-chat, model tokenscope-sim)`,
    );
    expect(r.stdout.match(/^A +[\d.]+ ms .* 1 tok /gm)).toHaveLength(8);
    expect(r.stdout.match(/^B +[\d.]+ ms .* 1 tok /gm)).toHaveLength(8);
    // The slower server's decode step is four times as long: its TPOT is the larger, B − A > 0.
    const lines = r.stdout.split('\n');
    const table = lines.slice(lines.findIndex((l) => /^ +A +B +B − A$/.test(l)));
    expect(table.length).toBeGreaterThan(8);
    const tpot = table.find((l) => l.startsWith('TPOT ')) ?? '';
    expect(tpot).toMatch(/^TPOT +[\d.]+ ms +[\d.]+ ms +\+[\d.]+ ms \(\+\d+ %\)$/);
    expect(table.find((l) => l.startsWith('output tokens '))).toMatch(/8 +8 +±0/);
    expect(table.find((l) => l.startsWith('outcome '))).toMatch(/ok +ok$/);
    // One of the two fails: its class is said, and no difference is computed against it.
    const half = await runCli(['probe', fast.url, failing.url, '-m', 'tokenscope-sim', '-n', '4', '-q']);
    expect(half.code).toBe(1);
    const hl = half.stdout.split('\n');
    expect(hl.find((l) => l.startsWith('outcome '))).toMatch(/ok +http\/status$/);
    expect(hl.filter((l) => /^(E2E|TTFT|output tokens) /.test(l)).some((l) => /[+−±]/.test(l))).toBe(false);
    const j = JSON.parse(
      (await runCli(['probe', fast.url, slow.url, '-n', '4', '--json'])).stdout,
    ) as ProbeJson[];
    expect(j.map((x) => x.url)).toEqual([
      `${fast.url}/v1/chat/completions`,
      `${slow.url}/v1/chat/completions`,
    ]);
    expect(j.map((x) => x.outputTokens)).toEqual([4, 4]);
    expect(j[1]!.ttftMs).toBeGreaterThan(0);
  });

  it("ITL is the app's everywhere: coalesced gaps left out of the text, --json and the two-URL table", async () => {
    // Gaps: c1→c2 in the first token's read (no measured gap), c2→c3 measured, c3→c4 coalesced,
    // c4→c5 measured, c5→c6 coalesced. Every gap: 5 with 3 zeros, p50 0; measured: 2, each ≥ ~40 ms.
    const r = await runCli(['probe', coalescing.url, '-m', 'x', '-q']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const chunk = lines.find((l) => l.startsWith('ITL per chunk '));
    expect(p50Of(chunk)).toBeGreaterThan(20);
    // Per token: a read's gap spread over its two tokens.
    expect(p50Of(lines.find((l) => l.startsWith('ITL per token ')))).toBeGreaterThan(10);
    expect(r.stdout).toMatch(/^coalesced +[\d.]+ % \(\d of 5\) .*left out of ITL$/m);
    // vLLM's every-gap figures are there too, said to be that.
    expect(p50Of(lines.find((l) => l.includes("every gap, per chunk (vLLM's ITL)")))).toBe(0);

    const j = JSON.parse((await runCli(['probe', coalescing.url, '-m', 'x', '--json'])).stdout) as ProbeJson;
    expect(j.itlMs.length).toBe(2);
    expect(Math.min(...j.itlMs)).toBeGreaterThan(20);
    expect(Math.min(...j.itlPerTokenMs)).toBeGreaterThan(0);
    expect(j.itlEveryGapMs).toHaveLength(5);
    expect(j.itlEveryGapMs.filter((g) => g === 0).length).toBe(j.coalescedGaps);
    expect(j.coalescedGaps).toBeGreaterThanOrEqual(2);

    // The same server twice: ITL/token p50 is measured on both sides, not −100 % from zeros.
    const two = await runCli(['probe', coalescing.url, coalescing.url, '-m', 'x', '-q']);
    const row = two.stdout.split('\n').find((l) => l.startsWith('ITL/token p50 ')) ?? '';
    const [a, b] = [...row.matchAll(/([\d.]+) ms/g)].map((m) => Number(m[1]));
    expect(a).toBeGreaterThan(10);
    expect(b).toBeGreaterThan(10);
  }, 90_000);

  it('says when the server answered as another model than asked (llama.cpp serves what it has loaded)', async () => {
    const wrong = await runCli(['probe', coalescing.url, '-m', 'llama-3-8b', '-q']);
    expect(wrong.code, wrong.stderr).toBe(0);
    expect(wrong.stderr).toContain(
      'warning: asked for model "llama-3-8b", the server answered as "llama-3.2-1b-instruct-q4_k_m.gguf"',
    );
    const j = JSON.parse(
      (await runCli(['probe', coalescing.url, '-m', 'llama-3-8b', '--json'])).stdout,
    ) as ProbeJson & { model: string; responseModel: string | null };
    expect([j.model, j.responseModel]).toEqual(['llama-3-8b', 'llama-3.2-1b-instruct-q4_k_m.gguf']);
    // The name it serves, or a server that names the model asked (the simulator): no warning.
    const right = await runCli(['probe', coalescing.url, '-m', 'llama-3.2-1b-instruct-q4_k_m.gguf', '-q']);
    expect(right.stderr).not.toContain('warning');
    const sim = await runCli(['probe', fast.url, '-n', '2', '-q']);
    expect(sim.stderr).not.toContain('warning');
  }, 90_000);
});
