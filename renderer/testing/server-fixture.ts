/**
 * A hand-made server side of a run (summary.server) for tests: three scrapes of a vLLM V1 server
 * and, when asked, the energy of its GPUs over the run.
 */
import type { EnergySummary } from '../../shared/runs/summary/server-side-schema.ts';
import type { ServerSideSummary } from '../../shared/runs/summary/server-side-schema.ts';

export const serverSide: ServerSideSummary = {
  source: 'scrape',
  url: 'http://127.0.0.1:8000/metrics',
  selector: null,
  profile: 'vllm-v1',
  profileName: 'vLLM (V1 engine)',
  model: 'tokenscope-sim',
  scrapes: 3,
  failures: 0,
  lastError: null,
  window: { fromMs: -5, toMs: 520 },
  peak: { running: 2, waiting: 1, kvCacheUsage: 0.0123 },
  delta: { generationTokens: 16, promptTokens: 40, preemptions: 0 },
  ttft: { count: 4, mean: 11, p50: 10, p90: 14, p99: 15 },
  queueTime: { count: 4, mean: 1, p50: 0.5, p90: 2, p99: 3 },
  e2e: { count: 4, mean: 60, p50: 55, p90: 70, p99: 75 },
  itl: null,
  series: [
    { t: -5, running: 0, waiting: 0, kvCacheUsage: 0 },
    { t: 250, running: 2, waiting: 1, kvCacheUsage: 0.01 },
    { t: 520, running: 0, waiting: 0, kvCacheUsage: 0 },
  ],
};

/** Two GPUs' energy over 0.5 s: `joules` in all, per token over `tokens`. */
export function energyOf(joules: number, tokens: number, method: EnergySummary['method'] = 'counter') {
  return {
    method,
    joules,
    gpus: 2,
    windowMs: { fromMs: -5, toMs: 495 },
    meanPowerW: joules / 0.5,
    outputTokens: tokens,
    joulesPerToken: joules / tokens,
    peakUtilPct: 87,
    peakFbUsedMiB: 20480,
  } satisfies EnergySummary;
}

/** The server side with its GPUs' energy and the telemetry endpoint it came from. */
export function serverWithEnergy(
  energy: EnergySummary | null,
  error: string | null = null,
): ServerSideSummary {
  return {
    ...serverSide,
    energy,
    telemetry: [{ url: 'http://127.0.0.1:9400/metrics', error }],
  };
}
