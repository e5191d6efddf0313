// @vitest-environment happy-dom
/**
 * llama.cpp counts generated tokens when a request completes: during a long stream its rate is 0,
 * then a spike. The throughput card says so for that profile, and draws this client's own tokens/s
 * (core/client-tokens.ts, fed by the stream's batches) beside it while the client streams.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientTokens, clientTokens } from '../core/client-tokens.ts';
import { concepts } from '../testing/metrics-fixture.ts';
import { MetricsCharts } from './MetricsCharts.tsx';
import { panelData } from './panel-data.ts';

afterEach(() => {
  cleanup();
  clientTokens.clear();
});

const T0 = Date.UTC(2026, 0, 2, 3, 4, 0);

/** A 20-s stream of 100 tok/s: the server's counter stands still until the request completes. */
function setup() {
  const points = Array.from({ length: 21 }, (_, i) => ({
    t: T0 + i * 1000,
    concepts: concepts({ generationTokensTotal: i < 20 ? 500 : 2500, promptTokensTotal: 100 }),
  }));
  for (let ms = 0; ms < 20_000; ms += 50) clientTokens.add('llama', T0 + ms, 5);
  const domain: [number, number] = [T0, T0 + 20_000];
  return { data: panelData(points, domain[0], domain[1]), domain };
}

describe('the token throughput card', () => {
  it("says llama.cpp counts at a request's end and draws the client's own rate beside it", () => {
    const { data, domain } = setup();
    render(
      <MetricsCharts
        targetId="llama"
        profile="llamacpp"
        profileName="llama.cpp"
        data={data}
        domain={domain}
        requests={[]}
        scrapes={21}
        failing={false}
        chartWidth={480}
      />,
    );
    expect(screen.getByTestId('metrics-throughput-at-end').textContent).toContain(
      'llama.cpp counts generated tokens when a request completes: a long stream reads 0 tok/s here, then a spike',
    );
    const chart = screen.getByTestId('metrics-throughput-chart');
    // prompt, generation, and the client's line: one point per second of the stream.
    expect(chart.getAttribute('data-points')).toMatch(/client:20$/);
    expect(chart.getAttribute('data-peaks')).toMatch(/client:100$/);
    const legend = screen.getByTestId('metrics-throughput-chart-card').textContent;
    expect(legend).toContain('this client received100 tok/s');
  });

  it('says nothing of the kind for a server that counts as it goes, and no client line without tokens', () => {
    const { data, domain } = setup();
    clientTokens.clear();
    render(
      <MetricsCharts
        targetId="llama"
        profile="vllm-v1"
        profileName="vLLM v1"
        data={data}
        domain={domain}
        requests={[]}
        scrapes={21}
        failing={false}
        chartWidth={480}
      />,
    );
    expect(screen.queryByTestId('metrics-throughput-at-end')).toBeNull();
    expect(screen.getByTestId('metrics-throughput-chart').getAttribute('data-points')).not.toContain(
      'client',
    );
  });
});

describe('ClientTokens', () => {
  it('sums tokens per second and per step, leaving out the step still filling', () => {
    const c = new ClientTokens();
    c.add('t', 1_000, 3);
    c.add('t', 1_900, 2);
    c.add('t', 2_500, 4);
    c.add('t', 3_100, 10);
    c.add('other', 1_000, 99);
    expect(c.series('t', 1_000, 4_000, 1000)).toEqual([
      { t: 1_000, v: 5 },
      { t: 2_000, v: 4 },
      { t: 3_000, v: 10 },
    ]);
    expect(c.series('t', 0, 4_000, 2000)).toEqual([
      { t: 0, v: 2.5 },
      { t: 2_000, v: 7 },
    ]);
    expect(c.series('t', 1_000, 4_000, 1000, 3_500)).toHaveLength(2);
  });
});
