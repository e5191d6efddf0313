/**
 * The debugger's digest of an embeddings or rerank answer stays bounded and never throws, whatever
 * the server sent: past POOLED_LIMITS the rest is counted, not kept; base64 vectors are decoded as
 * float32; a body that is not the dialect's shape keeps only its start; what it keeps counts toward
 * the history's memory bound.
 */
import { describe, expect, it } from 'vitest';
import { POOLED_LIMITS, pooledAnswerChars } from '../../../shared/pooled-answer.ts';
import { newRecord } from '../../../shared/record.ts';
import { recordFootprintBytes } from '../record-limits.ts';
import type { RequestSpec } from '../../../shared/request.ts';
import { pooledAnswer } from './pooled-answer.ts';

const spec = (inputs: string[]): RequestSpec => ({ url: 'http://x', dialect: 'rerank', model: 'm', inputs });

describe('pooledAnswer', () => {
  it('describes the first POOLED_LIMITS.items vectors, in index order, and counts the rest', () => {
    const n = POOLED_LIMITS.items + 44;
    const data = Array.from({ length: n }, (_, i) => ({
      object: 'embedding',
      index: n - 1 - i,
      embedding: [3, 4, i, 0, 0, 0, 0, 0, 0, 9],
    }));
    const text = JSON.stringify({ data });
    const a = pooledAnswer('openai-embeddings', spec([]), text, Buffer.byteLength(text));
    if (a.kind !== 'embeddings') throw new Error(a.kind);
    expect(a.items.length).toBe(POOLED_LIMITS.items);
    expect(a.omitted).toBe(44);
    expect(a.items[0]!.index).toBeLessThan(a.items[1]!.index);
    const first = a.items.at(-1)!; // the server's first item, index n − 1
    expect(first).toEqual({
      index: n - 1,
      dimension: 10,
      norm: Math.hypot(3, 4, 0, 9),
      head: [3, 4, 0, 0, 0, 0, 0, 0],
    });
    expect(a.body.length).toBe(POOLED_LIMITS.bodyChars);
    expect(a.bodyCut).toBe(true);
  });

  it('decodes base64 vectors as float32; a vector of neither kind has no dimension, a non-numeric one no norm', () => {
    const f32 = Buffer.from(Float32Array.from([3, 4]).buffer).toString('base64');
    const text = JSON.stringify({
      data: [
        { index: 0, embedding: 'AAA' },
        { index: 1, embedding: [1, 'x'] },
        { index: 2, embedding: f32 },
      ],
    });
    const a = pooledAnswer('openai-embeddings', spec([]), text, text.length);
    expect(a.kind === 'embeddings' && a.items).toEqual([
      { index: 0, dimension: null, norm: null, head: [] },
      { index: 1, dimension: 2, norm: null, head: [1] },
      { index: 2, base64: true, dimension: 2, norm: 5, head: [3, 4] },
    ]);
    expect(a.bodyCut).toBe(false);
  });

  it("takes a rerank document's text from the answer, else from the request, cut at documentChars", () => {
    const long = 'y'.repeat(POOLED_LIMITS.documentChars + 5);
    const text = JSON.stringify({
      results: [
        { index: 1, relevance_score: 0.9, document: { text: 'from the server' } },
        { index: 0, relevance_score: 0.2 },
        { index: 2, relevance_score: 'high' },
      ],
    });
    const a = pooledAnswer('rerank', spec(['sent zero', 'sent one', long]), text, text.length);
    if (a.kind !== 'rerank') throw new Error(a.kind);
    expect(a.results.map((r) => [r.index, r.text.slice(0, 15), r.textCut])).toEqual([
      [1, 'from the server', false],
      [0, 'sent zero', false],
      [2, 'yyyyyyyyyyyyyyy', true],
    ]);
    expect(a.results[2]!.text.length).toBe(POOLED_LIMITS.documentChars);
    expect(a.results[2]!.score).toBeNaN();
  });

  it('keeps only the start of a body that is not JSON or not the shape, and says when the engine cut it', () => {
    expect(pooledAnswer('rerank', spec([]), '<html>oops', 10)).toEqual({
      kind: 'unreadable',
      body: '<html>oops',
      bodyBytes: 10,
      bodyCut: false,
    });
    expect(pooledAnswer('openai-embeddings', spec([]), '{"data": 3}', 11).kind).toBe('unreadable');
    // 20 bytes sent, 10 kept by the engine's cap.
    expect(pooledAnswer('rerank', spec([]), '{"results"', 20)).toMatchObject({
      kind: 'unreadable',
      bodyCut: true,
    });
  });

  it("counts toward the history's memory bound: the body kept and every listed item", () => {
    const text = JSON.stringify({ results: [{ index: 0, relevance_score: 0.5 }] });
    const a = pooledAnswer('rerank', spec(['doc']), text, text.length);
    expect(pooledAnswerChars(a)).toBe(text.length + 48 + 3);
    const rec = newRecord({ id: 'r', url: '', dialect: 'rerank', model: 'm', startedAtWall: 0 });
    expect(recordFootprintBytes({ ...rec, answer: a }) - recordFootprintBytes(rec)).toBe(
      2 * pooledAnswerChars(a),
    );
  });

  it('compares 2 to 16 vectors of one length pairwise (cosine similarity), no more and no others', () => {
    const body = (data: unknown[]) => JSON.stringify({ data });
    const two = body([
      { index: 1, embedding: [4, 3] },
      { index: 0, embedding: [3, 4] },
    ]);
    const a = pooledAnswer('openai-embeddings', spec([]), two, two.length);
    expect(a.kind === 'embeddings' && a.similarity).toEqual([
      [1, 24 / 25],
      [24 / 25, 1],
    ]);
    const many = (n: number) => body(Array.from({ length: n }, (_, i) => ({ index: i, embedding: [1, i] })));
    const sixteen = many(POOLED_LIMITS.similarity);
    expect(pooledAnswer('openai-embeddings', spec([]), sixteen, sixteen.length)).toHaveProperty('similarity');
    const seventeen = many(POOLED_LIMITS.similarity + 1);
    expect(pooledAnswer('openai-embeddings', spec([]), seventeen, 0)).not.toHaveProperty('similarity');
    const mixed = body([
      { index: 0, embedding: [1, 2] },
      { index: 1, embedding: [1, 2, 3] },
    ]);
    expect(pooledAnswer('openai-embeddings', spec([]), mixed, 0)).not.toHaveProperty('similarity');
    const zero = body([
      { index: 0, embedding: [0, 0] },
      { index: 1, embedding: [1, 2] },
    ]);
    const z = pooledAnswer('openai-embeddings', spec([]), zero, 0);
    expect(z.kind === 'embeddings' && z.similarity?.[0]?.[1]).toBeNaN();
  });
});
