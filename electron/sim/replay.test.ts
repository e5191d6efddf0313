/**
 * Replay of captured bodies, and the ground-truth JSONL file.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';
import { splitSse } from './replay.ts';
import { chatBody, corpus, CORPUS_SSE, post } from '../testing/sim.ts';
import type { GroundTruthRecord } from './types.ts';

const sims: SimServer[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});
async function sim(...args: Parameters<typeof startSim>): Promise<SimServer> {
  const s = await startSim(...args);
  sims.push(s);
  return s;
}

describe('splitSse', () => {
  it('splits after blank lines of any line ending and loses no byte', () => {
    const text = 'data: a\n\ndata: b\r\n\r\n: c\r\rdata: d\n\n\ndata: tail';
    const parts = splitSse(text);
    expect(parts).toEqual(['data: a\n\n', 'data: b\r\n\r\n', ': c\r\r', 'data: d\n\n\n', 'data: tail']);
    expect(parts.join('')).toBe(text);
  });
});

describe('replay', () => {
  it('serves a corpus SSE file to any POST, byte for byte, one write per event', async () => {
    const s = await sim({ groundTruth: true, replay: { file: CORPUS_SSE + 'tgi-chat.sse', intervalMs: 5 } });
    const r = await post(s, '/anything', { whatever: true });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(r.text).toBe(corpus('tgi-chat.sse'));
    const gt = s.groundTruth();
    expect(gt).toHaveLength(splitSse(corpus('tgi-chat.sse')).length);
    expect(gt.at(-1)?.kind).toBe('done');
    expect(gt.reduce((a, g) => a + g.bytes, 0)).toBe(Buffer.byteLength(corpus('tgi-chat.sse')));
    const gaps = gt.slice(1).map((g, i) => g.tMs - (gt[i] as GroundTruthRecord).tMs);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2);
    // timers are never early; under CPU load they can be late, hence the loose upper bound
    const meanGap = ((gt.at(-1)?.tMs ?? 0) - (gt[0]?.tMs ?? 0)) / gaps.length;
    expect(meanGap).toBeGreaterThanOrEqual(4.5);
    expect(meanGap).toBeLessThan(15);
  });

  it("'original' timing follows Ollama created_at gaps", async () => {
    const s = await sim({
      groundTruth: true,
      replay: { file: CORPUS_SSE + 'ollama-api-chat.ndjson', timing: 'original' },
    });
    const r = await post(s, '/api/chat', {});
    expect(r.headers.get('content-type')).toBe('application/x-ndjson');
    expect(r.text).toBe(corpus('ollama-api-chat.ndjson'));
    const gt = s.groundTruth();
    const span = (gt.at(-1)?.tMs ?? 0) - (gt[0]?.tMs ?? 0);
    expect(span).toBeGreaterThanOrEqual(112); // 17:25:02.400118 -> .515291637: 115.2 ms
    expect(span).toBeLessThan(400);
    expect(gt.at(-1)).toMatchObject({ kind: 'done' });
    expect(gt.slice(0, -1).every((g) => g.tokens === 1)).toBe(true);
  });

  it('a .json capture is served with the status named in its file name', async () => {
    const s = await sim({ replay: { file: CORPUS_SSE + 'vllm-http-404-model-not-found.json' } });
    const r = await post(s, '/v1/chat/completions', {});
    expect(r.status).toBe(404);
    expect(r.text).toBe(corpus('vllm-http-404-model-not-found.json'));
  });
});

describe('ground truth file', () => {
  it('appends one JSON record per write, flushed on close', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-gt-')), 'gt.jsonl');
    const s = await startSim({ decodeStepMs: 1, groundTruth: file });
    await post(s, '/v1/chat/completions', chatBody({ max_tokens: 4 }));
    const inMemory = s.groundTruth();
    await s.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as GroundTruthRecord)).toEqual(inMemory);
    expect(inMemory.map((g) => g.kind)).toEqual(['chunk', 'chunk', 'chunk', 'chunk', 'chunk', 'done']);
    expect(inMemory[1]?.wallMs).toBeCloseTo(performance.timeOrigin + (inMemory[1]?.tMs ?? 0), 3);
  });
});
