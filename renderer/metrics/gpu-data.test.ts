import { describe, expect, it } from 'vitest';
import type { MetricsScrape } from '../../shared/metrics-api.ts';
import { parsePrometheus } from '../../shared/metrics/prom-parse.ts';
import { readTelemetry } from '../../shared/metrics/telemetry.ts';
import { gpuPanelData } from './gpu-data.ts';
import { TargetMetrics } from './metrics-store.ts';

// Two GPUs in dcgm-exporter's format (test-corpus/metrics/dcgm-exporter.prom's labels and values).
const L = (i: number) =>
  `{gpu="${i}",UUID="GPU-${i}",device="nvidia${i}",modelName="NVIDIA H100 80GB HBM3",Hostname="gpu-node-07"}`;
const reading = readTelemetry(
  parsePrometheus(
    [0, 1]
      .flatMap((i) => [
        `DCGM_FI_DEV_GPU_UTIL${L(i)} ${97 - 4 * i}`,
        `DCGM_FI_DEV_FB_USED${L(i)} 77350`,
        `DCGM_FI_DEV_FB_FREE${L(i)} 3251`,
        `DCGM_FI_DEV_POWER_USAGE${L(i)} ${612.348 - 25 * i}`,
      ])
      .join('\n') + '\n',
  ),
);

function scrape(t: number, power0: number): MetricsScrape {
  const gpus = reading.gpus.map((g, i) => (i === 0 ? { ...g, powerW: power0 } : g));
  return {
    targetId: 't',
    wallMs: t,
    durationMs: 1,
    bytes: 1,
    profile: 'unknown',
    profileName: 'Unknown server',
    concepts: {} as MetricsScrape['concepts'],
    rates: null,
    families: 0,
    series: 0,
    parseErrors: [],
    explorer: [],
    explorerTruncated: false,
    help: {},
    telemetry: [
      { url: 'http://h:9400/metrics', monoMs: t, error: null, exporter: 'dcgm', gpus, host: null },
      {
        url: 'http://h:9100/metrics',
        monoMs: t,
        error: 'connection refused',
        exporter: 'unknown',
        gpus: [],
        host: null,
      },
    ],
  };
}

describe('GPU panel data', () => {
  const tm = new TargetMetrics('t');
  for (let i = 0; i < 5; i++) tm.ingest(scrape(1000 + i * 1000, 100 + i * 100));

  it('the store keeps one tick per scrape with every GPU, and the failing endpoint', () => {
    expect(tm.gpus.size).toBe(5);
    expect(tm.gpus.last()!.gpus).toHaveLength(2);
    expect(tm.telemetryErrors).toEqual([{ url: 'http://h:9100/metrics', error: 'connection refused' }]);
  });

  it('one series per GPU: utilization in %, memory in GiB, power in W on the axis', () => {
    const d = gpuPanelData(tm.gpus.toArray(), 0, 6000);
    expect(d.gpus.map((g) => g.label)).toEqual(['GPU 0', 'GPU 1']);
    expect(d.gpus[0]!.powerW.map((p) => p.v)).toEqual([100, 200, 300, 400, 500]);
    expect(d.gpus[1]!.powerW.every((p) => p.v === reading.gpus[1]!.powerW)).toBe(true);
    expect(d.gpus[0]!.util.at(-1)!.v).toBe(97);
    expect(d.gpus[0]!.fbUsedGiB.at(-1)!.v).toBeCloseTo(77350 / 1024, 9);
    expect(d.fbTotalGiB).toBeCloseTo((77350 + 3251) / 1024, 9);
    expect(d.exposed).toEqual({ util: true, fb: true, power: true });
    expect(d.gpus[0]!.model).toBe('NVIDIA H100 80GB HBM3');
  });

  it('no telemetry: no GPUs', () => {
    expect(gpuPanelData([], 0, 1000).gpus).toEqual([]);
  });
});
