/**
 * Test helper: the app's core as web mode builds it (built-in simulator on 127.0.0.1:0, no user
 * data folder, keys in memory), with every event it emits recorded in order, typed per event.
 */
import type { ApiEvent, ApiEvents } from '../../shared/api.ts';
import type { MetricsScrape, MetricsState } from '../../shared/metrics-api.ts';
import { createCore, type Core } from '../app/core.ts';
import { MemorySecretBox } from '../app/secrets.ts';

export type RecordedEvent = { [E in ApiEvent]: { event: E; payload: ApiEvents[E] } }[ApiEvent];

export async function testCore(
  opts: { runsDir?: string } = {},
): Promise<{ core: Core; events: RecordedEvent[] }> {
  const events: RecordedEvent[] = [];
  const core = await createCore({
    mode: 'web',
    version: '0.0.0-test',
    userDataDir: null,
    ...(opts.runsDir !== undefined ? { runsDir: opts.runsDir } : {}),
    secrets: new MemorySecretBox(),
    emit: (event, payload) => events.push({ event, payload } as RecordedEvent),
  });
  return { core, events };
}

/** The metrics scrapes recorded for one target (all targets when `id` is omitted), in order. */
export function scrapesOf(events: readonly RecordedEvent[], id?: string): MetricsScrape[] {
  const out: MetricsScrape[] = [];
  for (const e of events)
    if (e.event === 'onMetricsScrape' && (id === undefined || e.payload.targetId === id)) out.push(e.payload);
  return out;
}

/** The metrics states recorded for one target, in order. */
export function statesOf(events: readonly RecordedEvent[], id: string): MetricsState[] {
  const out: MetricsState[] = [];
  for (const e of events) if (e.event === 'onMetricsState' && e.payload.targetId === id) out.push(e.payload);
  return out;
}
