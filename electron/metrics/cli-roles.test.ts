/**
 * `tokenscope metrics --metrics-endpoint ROLE=URL` as a process: a disaggregated deployment's
 * endpoints (the simulator's --disagg mode: SGLang's prefill and decode metrics at
 * /metrics/prefill and /metrics/decode), each scraped and printed under its role, with its
 * queues and KV-transfer time; the numbers are the simulator's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import type { ScrapeDigest } from './scrape-digest.ts';
import { closedPort, runCli, streamChat } from '../testing/cli.ts';

let s: SimServer;
beforeAll(async () => {
  s = await startSim({ port: 0, decodeStepMs: 2, kvTransferMs: 5 });
  for (let i = 0; i < 3; i++) await streamChat(s.url, 4);
});
afterAll(async () => {
  await s.close();
});

const roleArgs = (): string[] => [
  '--metrics-endpoint',
  `prefill=${s.url}/metrics/prefill`,
  '--metrics-endpoint',
  `decode=${s.url}/metrics/decode`,
];

describe('tokenscope metrics with role endpoints', () => {
  it('prints each role under its name, in the order given, with its KV transfers', async () => {
    const r = await runCli(['metrics', ...roleArgs()]);
    expect(r.code, r.stderr).toBe(0);
    const sections = r.stdout.split(/^(?=\[)/m);
    expect(sections.map((x) => x.slice(0, x.indexOf(']') + 1))).toEqual(['[prefill]', '[decode]']);
    expect(sections[0]).toContain(`${s.url}/metrics/prefill`);
    expect(sections[1]).toContain(`${s.url}/metrics/decode`);
    for (const sec of sections) {
      expect(sec).toMatch(/sglang-pd/);
      expect(sec).toMatch(/prefill queue\s+0/);
      expect(sec).toMatch(/KV transfer\s+n 3 /);
    }
  });

  it('--json: one line per role, with its role, its queues and the transfers the simulator ran', async () => {
    const truth = s.state().disagg!;
    expect(truth.transfers).toBe(3);
    const r = await runCli(['metrics', '--json', ...roleArgs()]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ScrapeDigest & { role: string });
    expect(lines.map((l) => l.role)).toEqual(['prefill', 'decode']);
    for (const l of lines) {
      expect(l.profile.id).toBe('sglang-pd');
      const h = l.concepts.kvTransferHistogram!;
      expect(h.count).toBe(truth.transfers);
      expect(h.sum! * 1000).toBeCloseTo(truth.transferMsSum, 3);
      expect(l.concepts.prefillPreallocQueue).toBe(0);
      expect(l.concepts.decodeTransferQueue).toBe(0);
    }
  });

  it('a URL given beside them is the server role; an endpoint down exits 1, the others still print', async () => {
    const down = await closedPort();
    const r = await runCli([
      'metrics',
      '--json',
      s.url,
      '--metrics-endpoint',
      `decode=http://127.0.0.1:${down}/metrics`,
    ]);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role?: string; error?: { kind: string } });
    expect(lines[0]!.role).toBe('server');
    expect(lines[1]!.error?.kind).toBe('network');
  });

  it('bad roles, nothing to scrape, or roles with --prometheus: exit 2', async () => {
    const bad = await runCli(['metrics', '--metrics-endpoint', `gpu=${s.url}/metrics`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"gpu" is not a role/);
    const none = await runCli(['metrics']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give a server URL, or its endpoints with --metrics-endpoint/);
    const prom = await runCli(['metrics', s.url, '--prometheus', '--watch', ...roleArgs()]);
    expect(prom.code).toBe(2);
    expect(prom.stderr).toMatch(/not with --prometheus/);
  });
});
