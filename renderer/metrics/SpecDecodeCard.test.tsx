// @vitest-environment happy-dom
/**
 * The speculative-decoding card over the panel's window: vLLM's counters give rate, mean
 * acceptance length and per-position bars; SGLang's gauges give the two numbers; a server without
 * them says "not exposed", never 0 %.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { concepts } from '../testing/metrics-fixture.ts';
import type { SpecDecodeReading } from '../../shared/metrics/spec-decode.ts';
import { cardContext } from './card-context.ts';
import { panelData } from './panel-data.ts';
import { SpecDecodeCard } from './SpecDecodeCard.tsx';

afterEach(cleanup);

const T0 = Date.UTC(2026, 0, 2, 3, 4, 0);
const vllm = (drafts: number): SpecDecodeReading => ({
  counters: {
    drafts,
    draftTokens: 3 * drafts,
    accepted: 1.5 * drafts,
    perPosition: [0.7 * drafts, 0.5 * drafts, 0.3 * drafts],
  },
  gauges: null,
});

function show(spec: (i: number) => SpecDecodeReading | null, profileName = 'vLLM (V1 engine)') {
  const points = Array.from({ length: 11 }, (_, i) => ({
    t: T0 + i * 1000,
    concepts: concepts({}),
    spec: spec(i),
  }));
  const domain: [number, number] = [T0, T0 + 10_000];
  const data = panelData(points, domain[0], domain[1]);
  const ctx = cardContext({ data, domain, width: 500, profileName, scrapes: points.length, failing: false });
  render(<SpecDecodeCard data={data} ctx={ctx} />);
  return screen.getByTestId('metrics-spec-decode-card');
}

describe('the speculative-decoding card', () => {
  it("vLLM: the window's rate, mean acceptance length and a bar per draft position", () => {
    const card = show((i) => vllm(100 + 40 * i));
    expect(card.textContent).toContain('acceptance rate50.0 %');
    expect(card.textContent).toContain('mean acceptance length2.50 tok/step');
    const bars = screen.getAllByTestId('spec-position');
    expect(bars.map((b) => b.textContent)).toEqual(['pos 170.0 %', 'pos 250.0 %', 'pos 330.0 %']);
    expect(card.textContent).toContain('400 drafts, 1200 draft tokens, 600 accepted');
  });

  it("SGLang's gauges: the two numbers, and no per-position counts said so", () => {
    const card = show(
      () => ({ counters: null, gauges: { acceptLength: 2.75, acceptRate: 0.4375 } }),
      'SGLang',
    );
    expect(card.textContent).toContain('43.8 %');
    expect(card.textContent).toContain('2.75 tok/step');
    expect(card.textContent).toContain('exports no per-position counts');
  });

  it('a server without the families: not exposed, no 0 %', () => {
    const card = show(() => null);
    expect(card.textContent).toContain('Not exposed by this server (vLLM (V1 engine))');
    expect(card.textContent).not.toContain('0.0 %');
  });

  it('no drafts in the window: said, not a rate of 0', () => {
    const card = show(() => vllm(100));
    expect(card.textContent).toContain('No drafts verified in this window');
    expect(card.textContent).not.toContain('0.0 %');
  });
});
