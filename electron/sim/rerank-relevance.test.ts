import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';
import { relevance } from './pooling.ts';

describe('the simulator’s rerank relevance', () => {
  it('ranks by the share of the query’s content words a document has; jitter only orders ties', () => {
    const q = 'Where can I see the Mona Lisa?';
    const both = relevance(q, 'The Louvre in Paris shows the Mona Lisa.', 1);
    const none = relevance(q, 'The Eiffel Tower is 330 metres tall.', 1);
    const all = relevance(q, 'See the Mona Lisa', 1);
    // "see", "mona", "lisa": 2 of 3, 0 of 3, 3 of 3 (stop words and case ignored).
    expect(both).toBeGreaterThanOrEqual(0.05 + 0.85 * (2 / 3));
    expect(both).toBeLessThan(0.05 + 0.85 * (2 / 3) + 0.1);
    expect(none).toBeGreaterThanOrEqual(0.05);
    expect(none).toBeLessThan(0.15);
    expect(all).toBeGreaterThanOrEqual(0.9);
    expect(all).toBeLessThan(1);
    // Seeded: the same pair scores the same; another seed moves only the jitter.
    expect(relevance(q, 'The Louvre in Paris shows the Mona Lisa.', 1)).toBe(both);
    expect(Math.abs(relevance(q, 'The Louvre in Paris shows the Mona Lisa.', 2) - both)).toBeLessThan(0.1);
    expect(relevance('', 'anything', 1)).toBeLessThan(0.15);
  });

  describe('over loopback', () => {
    let sim: SimServer;
    beforeAll(async () => {
      sim = await startSim({ port: 0, seed: 7, decodeStepMs: 5 });
    });
    afterAll(async () => {
      await sim.close();
    });

    it('puts the documents about the query first', async () => {
      const documents = [
        'The Louvre in Paris shows the Mona Lisa.',
        'Bananas are rich in potassium.',
        'Leonardo da Vinci painted the Mona Lisa in the early 16th century.',
        'The Eiffel Tower is 330 metres tall.',
        'Ice melts at zero degrees Celsius.',
      ];
      const r = await fetch(sim.url + '/v1/rerank', {
        method: 'POST',
        body: JSON.stringify({ query: 'Where can I see the Mona Lisa?', documents, top_n: 3 }),
      });
      expect(r.status).toBe(200);
      const j = (await r.json()) as { results: { index: number; relevance_score: number }[] };
      expect(j.results).toHaveLength(3);
      expect(
        j.results
          .slice(0, 2)
          .map((x) => x.index)
          .sort(),
      ).toEqual([0, 2]);
      expect(j.results[1]!.relevance_score).toBeGreaterThan(j.results[2]!.relevance_score + 0.4);
    });
  });
});
