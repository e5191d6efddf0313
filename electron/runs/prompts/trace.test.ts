import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorkload, type PromptSource } from '../../../shared/runs/workload/workload.ts';
import { countPromptTokens, countTextTokens } from '../../../shared/tokenizer.ts';
import { CORPUS_DIR } from '../../testing/corpus.ts';
import { tmpDir } from '../../testing/runs.ts';
import { PromptFileError } from './files.ts';
import { loadPrompts } from './prompts.ts';
import { workloadHash } from '../files/workload-hash.ts';
import { errorMessage } from '../../../shared/result.ts';

const TRACES = path.join(CORPUS_DIR, 'traces');
type TraceSource = Extract<PromptSource, { type: 'trace' }>;

function source(over: Partial<TraceSource> & { path: string }): TraceSource {
  const w = parseWorkload({ prompts: { type: 'trace', ...over } });
  if (!w.ok || w.value.prompts.type !== 'trace') throw new Error(JSON.stringify(w));
  return w.value.prompts;
}

/** Leading tokens two prompts share: the tokenizer gives one token per word, one space apart. */
function sharedTokens(a: string, b: string): number {
  const x = a.split(' ');
  const y = b.split(' ');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

describe('trace prompts', () => {
  it("give every request exactly the trace's prompt tokens (the shared tokenizer counts them)", async () => {
    const p = await loadPrompts(source({ path: 'mooncake-conversation-head.jsonl' }), 0, TRACES);
    expect(p.size).toBe(14);
    const want = [6758, 7322, 7236, 2290, 6760, 4834, 23141, 26888, 10498, 17450, 13544, 87169, 6324, 2012];
    for (let i = 0; i < 14; i++) {
      const it = p.at(i);
      expect(countTextTokens(it.prompt!), `request ${i}`).toBe(want[i]);
      expect(it.inputTokens).toBe(want[i]);
    }
    expect(p.at(0).outputTokens).toBe(500);
    expect(p.force).toBe('ignore_eos');
  });

  it('share exactly the tokens of the hash-id prefix two requests share', async () => {
    const p = await loadPrompts(source({ path: 'mooncake-readme-sample.jsonl' }), 3, TRACES);
    const [a, b] = [p.at(0).prompt!, p.at(1).prompt!];
    // 12 shared block ids × 512 tokens; the 13th blocks differ (ids 2353 and 2366).
    const shared = sharedTokens(a, b);
    expect(shared).toBeGreaterThanOrEqual(12 * 512);
    expect(shared).toBeLessThan(13 * 512);
    expect(a.slice(0, 100)).toBe(b.slice(0, 100));
    // The conversation trace's requests all start with block 0 and nothing more.
    const c = await loadPrompts(source({ path: 'mooncake-conversation-head.jsonl' }), 3, TRACES);
    for (let i = 1; i < 14; i++) {
      const s = sharedTokens(c.at(0).prompt!, c.at(i).prompt!);
      expect(s, `request ${i}`).toBeGreaterThanOrEqual(512);
      expect(s, `request ${i}`).toBeLessThan(1024);
    }
  });

  it('are deterministic in the seed: same seed same text, another seed other text', async () => {
    const src = source({ path: 'mooncake-readme-sample.jsonl' });
    const a = await loadPrompts(src, 1, TRACES);
    const b = await loadPrompts(src, 1, TRACES);
    const c = await loadPrompts(src, 2, TRACES);
    expect(a.at(1).prompt).toBe(b.at(1).prompt);
    expect(sharedTokens(a.at(1).prompt!, c.at(1).prompt!)).toBeLessThan(8);
  });

  it("give warm-up and test requests trace lengths but none of the trace's prefixes", async () => {
    const p = await loadPrompts(source({ path: 'mooncake-readme-sample.jsonl' }), 0, TRACES);
    for (const stream of ['warmup', 'test'] as const) {
      const w = p.at(0, stream);
      expect([6955, 6472]).toContain(countTextTokens(w.prompt!));
      for (let i = 0; i < 2; i++) expect(sharedTokens(w.prompt!, p.at(i).prompt!)).toBeLessThan(8);
    }
  });

  it('plan send times from the trace, divided by the speedup', async () => {
    const p = await loadPrompts(source({ path: 'mooncake-readme-sample.jsonl', speedup: 10 }), 0, TRACES);
    expect([...p.schedule!]).toEqual([0, (30535 - 27482) / 10]);
    expect(p.description).toBe(
      'trace mooncake-readme-sample.jsonl (Mooncake, 2 requests over 3.1 s, ×10 → replay takes 305.3 ms)',
    );
    const slow = await loadPrompts(
      source({ path: 'mooncake-readme-sample.jsonl', speedup: 0.000001 }),
      0,
      TRACES,
    );
    expect(slow.description).toContain('over 3.1 s, ×0.000001 → replay takes 35.3 days)');
    const b = await loadPrompts(source({ path: 'burstgpt-head.csv', startS: 40 }), 0, TRACES);
    expect([...b.schedule!]).toEqual([0, 73_000]);
    expect(b.description).toContain('2 requests over 73.0 s → replay takes 73.0 s; 1 outside the window');
    expect(countPromptTokens(b.at(0).prompt!)).toBe(1087 + 1);
  });

  it('fail with the bad lines, numbered, and the kind of each', async () => {
    const dir = tmpDir('tokenscope-trace-');
    const file = path.join(dir, 'bad.jsonl');
    writeFileSync(file, '{"timestamp": 0, "input_length": 3, "output_length": 1}\nnope\n{"timestamp": 1}\n');
    const err = await loadPrompts(source({ path: file }), 0, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PromptFileError);
    expect(errorMessage(err)).toBe(
      `${file}: line 2: not-json (not JSON); line 3: bad-field (input_length: expected 0–1048576 tokens)`,
    );
  });
});

describe("a trace replay's workload hash (shards must agree on it)", () => {
  const hashOf = async (file: string, speedup: number): Promise<string> => {
    const r = parseWorkload({ prompts: { type: 'trace', path: file, speedup } });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const prompts = await loadPrompts(r.value.prompts, 0, '/');
    return workloadHash(r.value, { model: 'm', dialect: 'openai-chat' }, prompts);
  };
  it('is the same for the same trace in another folder, and differs with the speedup', async () => {
    const dir = tmpDir('tokenscope-trace-hash-');
    const src = path.join(TRACES, 'mooncake-readme-sample.jsonl');
    mkdirSync(path.join(dir, 'b'));
    copyFileSync(src, path.join(dir, 'b', 'mooncake-readme-sample.jsonl'));
    const a = await hashOf(src, 10);
    expect(await hashOf(path.join(dir, 'b', 'mooncake-readme-sample.jsonl'), 10)).toBe(a);
    expect(await hashOf(src, 20)).not.toBe(a);
  });
});
