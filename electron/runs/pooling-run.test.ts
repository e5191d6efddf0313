/**
 * Load runs of the non-streaming dialects against the simulator over loopback: the batch reaches
 * the server as the workload says, the summary measures latency, request and input-token
 * throughput and batch sizes, and has no TTFT/ITL/TPOT — absent, not zeros — in its stats, its
 * vLLM keys, its text and its JSON; the file reopens to the same summary.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryText } from '../../shared/runs/summary/text.ts';
import { summaryJson } from '../../shared/runs/summary/json.ts';
import { streamsTokens } from '../../shared/runs/summary/batch.ts';
import { compareRows } from '../../shared/runs/compare/compare.ts';
import { cdfsOf } from '../../shared/runs/summary/distributions.ts';
import { parseWorkload } from '../../shared/runs/workload/workload.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { runAgainst, tmpDir } from '../testing/runs.ts';
import { readRunFile } from './files/run-file.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, seed: 4, decodeStepMs: 5, prefillMsPerToken: 0.01, embeddingDim: 32 });
});
afterAll(async () => {
  await sim.close();
});

/** Every TTFT/ITL/TPOT mark a surface could print. */
const TOKEN_TIMING = /TTFT|ITL|TPOT|Inter-token|First Token|per Output Token/;

describe('an embeddings load run', () => {
  const out = path.join(tmpDir('tokenscope-embed-'), 'embed.jsonl');
  let r: Awaited<ReturnType<typeof runAgainst>>;
  beforeAll(async () => {
    r = await runAgainst(
      sim,
      {
        requests: 12,
        maxConcurrency: 4,
        prompts: { type: 'synthetic', inputLen: 20 },
        pooling: { batchSize: 4 },
        testRequest: false,
      },
      { outFile: out, target: { url: sim.url, dialect: 'openai-embeddings', model: 'tokenscope-sim' } },
    );
  }, 60_000);

  it('sends batches of four and reads each answer whole', () => {
    expect(r.lines).toHaveLength(12);
    for (const l of r.lines) {
      expect(l.status, JSON.stringify(l.error)).toBe('ok');
      expect(l.batch).toEqual({ inputs: 4, results: 4, dimension: 32 });
      expect(l.events.t).toHaveLength(0);
      expect(l.ttftMs).toBeNull();
      expect(l.inputTokensSource).toBe('usage');
      expect(l.e2eMs!).toBeGreaterThan(0);
    }
  });

  it('summarises latency, throughputs and batch sizes, and no token timing', () => {
    const s = r.summary;
    expect(streamsTokens(s)).toBe(false);
    expect(s.batch).toMatchObject({ requests: 12, inputs: 48, meanInputs: 4, minInputs: 4, maxInputs: 4 });
    expect(s.batch!.inputTokensFrom).toBe('usage');
    expect(s.batch!.dimension).toBe(32);
    expect(s.batch!.inputsPerS).toBeCloseTo(48 / s.vllm.duration, 6);
    expect(s.batch!.inputTokensPerS).toBeCloseTo(s.vllm.total_input_tokens / s.vllm.duration, 6);
    const tokens = r.lines.reduce((a, l) => a + l.inputTokens!, 0);
    expect(s.vllm.total_input_tokens).toBe(tokens);
    expect(s.stats.e2el?.count).toBe(12);
    expect(s.stats.ttft).toBeNull();
    expect(s.stats.tpot).toBeNull();
    expect(s.stats.itl).toBeNull();
    for (const k of Object.keys(s.vllm)) expect(k).not.toMatch(/ttft|tpot|itl/);
    expect(s.vllm.mean_e2el_ms).toBeGreaterThan(0);
  });

  it('its progress counts inputs and input tokens as they finish, and has no live token timing', () => {
    const last = r.progress.at(-1)!;
    expect(last.batch).toEqual({ inputs: 48, inputTokens: r.summary.vllm.total_input_tokens });
    expect(last.live.ttft).toBeNull();
    expect(last.live.itl).toBeNull();
    expect(last.live.e2el?.count).toBe(12);
    // Counted as requests end: never more than the run's in all, never going back.
    const seen = r.progress.map((p) => p.batch?.inputs ?? 0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('the text summary and the JSON have no TTFT/ITL/TPOT rows, and say the batch', () => {
    const text = summaryText(r.summary);
    expect(text).not.toMatch(TOKEN_TIMING);
    expect(text).not.toContain('Output token throughput');
    expect(text).toMatch(/Inputs per request \(mean\/min\/max\): +4\.00 \/ 4 \/ 4/);
    expect(text).toContain('Input token throughput (tok/s):');
    expect(text).toContain('(server usage)');
    expect(text).toContain('Embedding dimension:');
    expect(text).toContain('End-to-end Latency');
    const json = summaryJson(r.summary);
    expect(Object.keys(json).filter((k) => /ttft|tpot|itl/.test(k))).toEqual([]);
    expect(json.mean_inputs_per_request).toBe(4);
  });

  it('a comparison of two such runs has no token-timing or output rows', () => {
    const rows = compareRows([r.summary, r.summary]);
    expect(rows.map((x) => x.def.id).filter((id) => /ttft|tpot|itl|out-tput|peak-tput/.test(id))).toEqual([]);
    expect(rows.map((x) => x.def.id)).toContain('e2el-p99');
    expect(rows.map((x) => x.def.id)).toContain('req-tput');
    // Their batch instead; the total token throughput is all input, so only the batch's row says it.
    const ids = rows.map((x) => x.def.id);
    expect(ids).toEqual(
      expect.arrayContaining(['batch-inputs-mean', 'batch-inputs-tput', 'batch-input-tok-tput']),
    );
    expect(ids).not.toContain('total-tput');
    const tokRow = rows.find((x) => x.def.id === 'batch-input-tok-tput')!;
    expect(tokRow.values[0]).toBeCloseTo(r.summary.batch!.inputTokensPerS, 9);
    expect(cdfsOf([[], []], [r.summary, r.summary]).map((c) => c.id)).toEqual(['e2el']);
  });

  it('reopens to the same summary', async () => {
    const f = await readRunFile(out);
    if (!f.ok) throw new Error(f.error);
    expect(f.value.summary.batch).toEqual(r.summary.batch);
    expect(f.value.summary.stats.ttft).toBeNull();
  });
});

describe('a rerank load run', () => {
  it('scores documents per query, top_n of them; the estimate matches the server’s count', async () => {
    const r = await runAgainst(
      sim,
      {
        requests: 6,
        maxConcurrency: 2,
        prompts: { type: 'synthetic', inputLen: 12 },
        pooling: { documents: 5, documentLen: 30, topN: 3 },
        testRequest: false,
      },
      { target: { url: sim.url, dialect: 'rerank', model: 'tokenscope-sim' } },
    );
    for (const l of r.lines) {
      expect(l.status, JSON.stringify(l.error)).toBe('ok');
      expect(l.batch).toEqual({ inputs: 5, results: 3 });
    }
    expect(r.summary.batch).toMatchObject({ inputs: 30, meanInputs: 5, dimension: null });
    expect(summaryText(r.summary)).not.toMatch(TOKEN_TIMING);
  }, 60_000);
});

describe('the workload’s pooling part', () => {
  it('is validated with the field named', () => {
    const bad = parseWorkload({ requests: 1, pooling: { batchSize: 0 } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(JSON.stringify(bad.error)).toContain('pooling.batchSize');
    const big = parseWorkload({ requests: 1, pooling: { documents: 5000 } });
    expect(!big.ok && JSON.stringify(big.error)).toContain('at most 4096');
    const typo = parseWorkload({ requests: 1, pooling: { batch: 2 } });
    expect(typo.ok).toBe(false);
  });
});
