import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from './core.ts';
import { MemorySecretBox } from './secrets.ts';
import { SIM_TARGET_ID } from './targets.ts';
import type { ApiEvent } from '../../shared/api.ts';
import type { MetricsScrape, MetricsState } from '../../shared/metrics-api.ts';

const events: { event: ApiEvent; payload: unknown }[] = [];
let core: Core;

beforeAll(async () => {
  core = await createCore({ mode: 'web', version: 't', userDataDir: null, secrets: new MemorySecretBox(), emit: (event, payload) => events.push({ event, payload }) });
});
afterAll(async () => {
  await core.close();
});

async function until(pred: () => boolean, ms = 8000): Promise<void> {
  const end = performance.now() + ms;
  while (!pred()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('metrics service', () => {
  it('scrapes the watched simulator: vLLM v1 profile, concepts, rates from the second scrape, every series', async () => {
    const r = await core.handlers.watchMetrics([SIM_TARGET_ID]);
    expect(r.ok).toBe(true);
    const scrapes = () => events.filter((e) => e.event === 'onMetricsScrape').map((e) => e.payload as MetricsScrape);
    await until(() => scrapes().length >= 2);
    const [a, b] = scrapes();
    expect(a!.profile).toBe('vllm-v1');
    expect(a!.targetId).toBe(SIM_TARGET_ID);
    expect(a!.concepts.requestsRunning).toBe(0);
    expect(a!.concepts.ttftHistogram).not.toBeNull();
    expect(a!.rates).toBeNull();
    expect(b!.rates).not.toBeNull();
    expect(b!.wallMs).toBeGreaterThan(a!.wallMs);
    expect(a!.explorer.some((s) => s.family === 'vllm:num_requests_running')).toBe(true);
    expect(a!.explorer.find((s) => s.family === 'vllm:time_to_first_token_seconds')?.buckets?.length).toBeGreaterThan(5);
    expect(a!.families).toBeGreaterThan(5);
  });

  it('reports a failing target as state with backoff, and stops when unwatched', async () => {
    const saved = await core.handlers.saveTarget({ name: 'down', baseUrl: 'http://127.0.0.1:9', dialect: 'openai-chat' });
    const id = saved.ok ? saved.value.id : '';
    await core.handlers.watchMetrics([id]);
    const states = () => events.filter((e) => e.event === 'onMetricsState').map((e) => e.payload as MetricsState).filter((s) => s.targetId === id);
    await until(() => states().some((s) => s.status === 'failing'));
    const failing = states().find((s) => s.status === 'failing')!;
    expect(failing.lastError?.kind).toBe('network');
    expect(failing.consecutiveFailures).toBeGreaterThanOrEqual(1);
    const stopped = await core.handlers.watchMetrics([]);
    expect(stopped.ok && stopped.value).toEqual([]);
  });
});
