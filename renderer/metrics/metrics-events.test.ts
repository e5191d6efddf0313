import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Result } from '../../shared/api.ts';
import { setTransport } from '../core/api.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { subscribeMetricsEvents, watchMetrics } from './metrics-events.ts';
import { metricsStore } from './metrics-store.ts';
import { flushMetricsSummary, resetMetricsSummary, useMetricsStore } from './summary-store.ts';
import { scrape, state } from '../testing/metrics-fixture.ts';

let t: FakeTransport;
let offs: (() => void)[];

beforeEach(() => {
  metricsStore.clear();
  resetMetricsSummary();
  t = new FakeTransport();
  setTransport(t);
  offs = subscribeMetricsEvents();
});

afterEach(() => {
  for (const off of offs) off();
  setTransport(null);
});

describe('metrics events', () => {
  it('feeds scrapes to the ring store and publishes a summary', () => {
    t.emit('onMetricsScrape', scrape({ t: 1000, targetId: 'a' }));
    t.emit('onMetricsScrape', scrape({ t: 2000, targetId: 'a' }));
    expect(metricsStore.get('a')!.scrapes.size).toBe(2);
    // React sees nothing until the throttled publish.
    expect(useMetricsStore.getState().targets.a).toBeUndefined();
    flushMetricsSummary();
    const s = useMetricsStore.getState().targets.a!;
    expect(s.version).toBe(2);
    expect(s.meta!.profile).toBe('vllm-v1');
    expect(s.lastScrapeAt).not.toBeNull();
  });

  it('keeps a state event that arrived while watchMetrics was on its way', async () => {
    let answer: (r: Result<unknown>) => void = () => {};
    t.call = (method, args) => {
      t.calls.push({ method, args });
      return new Promise((res) => (answer = res));
    };
    const pending = watchMetrics(['a']);
    t.emit('onMetricsState', state({ targetId: 'a', status: 'ok' }));
    answer({ ok: true, value: [state({ targetId: 'a', status: 'idle' })] });
    await pending;
    flushMetricsSummary();
    expect(useMetricsStore.getState().targets.a!.state!.status).toBe('ok');
    expect(t.calls[0]).toEqual({ method: 'watchMetrics', args: [['a']] });
  });

  it('shows a refused watch as an error of the target', async () => {
    t.handlers.watchMetrics = () => ({ ok: false, error: { kind: 'client', message: 'no such target' } });
    await watchMetrics(['a']);
    flushMetricsSummary();
    expect(useMetricsStore.getState().targets.a!.watchError).toBe('no such target');
  });
});
