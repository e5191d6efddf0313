/**
 * `tokenscope run --mix` against `tokenscope sim --extra-model`, as a user runs them (real
 * processes): the text and --json outputs break the numbers down by model; a bad mix is refused
 * before anything is sent, with the field's name, exit 2; so is a bad --extra-model.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';

const dir = tmpDir('tokenscope-mix-');
let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({
    port: 0,
    model: 'base',
    extraModels: [{ name: 'lora-fast', speedup: 4 }],
    decodeStepMs: 8,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
  });
});
afterAll(async () => {
  await sim.close();
});

const MIX = ['--mix', 'base=1', '--mix', 'lora-fast=1', '-n', '12', '-c', '4', '--output-len', '6'];

describe('tokenscope run --mix', () => {
  it('prints a by-model section, and --json has by_model', async () => {
    const text = await runCli(
      ['run', '--target', sim.url, ...MIX, '--out', path.join(dir, 'a.jsonl')],
      60_000,
    );
    expect(text.code, text.stderr).toBe(0);
    const at = text.stdout.indexOf('By Model (model mix)');
    expect(at).toBeGreaterThan(0);
    const rows = text.stdout.slice(at).split('\n').slice(2, 4);
    expect(rows.map((r) => r.split(/\s+/)[0])).toEqual(['base', 'lora-fast']);
    const json = await runCli(
      ['run', '--target', sim.url, ...MIX, '--json', '--out', path.join(dir, 'b.jsonl')],
      60_000,
    );
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as { by_model: { model: string; requests: number }[] };
    expect(out.by_model.map((r) => r.model)).toEqual(['base', 'lora-fast']);
    expect(out.by_model.reduce((a, r) => a + r.requests, 0)).toBe(12);
  }, 120_000);

  it('refuses a bad mix with the field named, exit 2, nothing sent', async () => {
    const before = sim.state().requests;
    const r = await runCli(['run', '--target', sim.url, '--mix', 'base=heavy', '-n', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/models\[0\]\.weight: .*number/);
    const twice = await runCli(['run', '--target', sim.url, '--mix', 'base', '--mix', 'base', '-n', '2']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('models[1].name: "base" is listed twice');
    expect(sim.state().requests).toBe(before);
  }, 60_000);

  it('tokenscope sim refuses a bad --extra-model, exit 2', async () => {
    const r = await runCli(['sim', '--port', '0', '--extra-model', 'lora=fast']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--extra-model "lora=fast": the speedup must be a number');
  });
});
