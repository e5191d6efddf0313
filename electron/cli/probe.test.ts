/**
 * `tokenscope probe` as a user runs it (a real process, real HTTP over loopback to simulators):
 * one request live then summed up, --json for scripts, a failing server's exit code, and the same
 * request to two servers at the same moment, compared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.ts';
import { startSim, type SimServer } from '../sim/index.ts';

let fast: SimServer;
let slow: SimServer;
let failing: SimServer;

beforeAll(async () => {
  fast = await startSim({ port: 0, decodeStepMs: 5, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  slow = await startSim({ port: 0, decodeStepMs: 20, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
  failing = await startSim({ port: 0, fault: 'http-503' });
});
afterAll(async () => {
  await Promise.all([fast.close(), slow.close(), failing.close()]);
});

type ProbeJson = { url: string; ttftMs: number; outputTokens: number; itlMs: number[]; error: unknown };

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
    expect(j.itlMs).toHaveLength(4);
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
});
