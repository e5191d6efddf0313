import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../../electron/testing/corpus.ts';
import { parsePrometheus } from './prom-parse.ts';
import { detectExporterId, readTelemetry } from './telemetry.ts';

const parse = (f: string) => parsePrometheus(readFileSync(path.join(CORPUS_DIR, 'metrics', f), 'utf8'));

describe('exporter detection', () => {
  it.each([
    ['dcgm-exporter.prom', 'dcgm'],
    ['dcgm-exporter-readme.prom', 'dcgm'],
    ['node-exporter.prom', 'node'],
    ['vllm-v1.prom', 'unknown'],
  ])('%s → %s', (file, id) => {
    expect(detectExporterId(parse(file))).toBe(id);
  });
});

describe('dcgm-exporter (current default counters)', () => {
  const r = parse('dcgm-exporter.prom');
  it('parses without errors', () => expect(r.errors).toEqual([]));
  const t = readTelemetry(r);
  it('one reading per GPU, identified by UUID, with model and host', () => {
    expect(t.gpus.map((g) => [g.gpu, g.key, g.model, g.host])).toEqual([
      ['0', 'GPU-3f1d2a6e-8c41-4b7e-9d02-5a8e6c1f7b90', 'NVIDIA H100 80GB HBM3', 'gpu-node-07'],
      ['1', 'GPU-b72c94d0-1e5a-4f63-a8b1-0c9d3e2f6a17', 'NVIDIA H100 80GB HBM3', 'gpu-node-07'],
    ]);
  });
  it('units: %, MiB, W, the mJ energy counter in J, profiling ratios', () => {
    const g = t.gpus[0]!;
    expect(g.utilPct).toBe(97);
    expect(g.fbUsedMiB).toBe(77350);
    expect(g.fbFreeMiB).toBe(3251);
    expect(g.powerW).toBeCloseTo(612.348, 6);
    expect(g.energyJ).toBeCloseTo(84213377.921, 3);
    expect(g.tensorActive).toBeCloseTo(0.418835, 6);
    expect(g.dramActive).toBeCloseTo(0.71329, 6);
    expect(t.gpus[1]!.energyJ).toBeCloseTo(81990412.554, 3);
  });
  it('no host reading from a GPU exporter', () => expect(t.host).toBeNull());
});

describe('dcgm-exporter README sample (older exporter)', () => {
  const r = parse('dcgm-exporter-readme.prom');
  it('takes a space after the label comma', () => {
    expect(r.errors).toEqual([]);
    expect(r.families.find((f) => f.name === 'DCGM_FI_DEV_SM_CLOCK')?.samples[0]?.labels).toEqual({
      gpu: '0',
      UUID: 'GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52',
    });
  });
  it('has the GPU but none of the fields we chart (the blank sentinel is no value)', () => {
    const t = readTelemetry(r);
    expect(t.gpus).toEqual([]);
  });
});

describe('node_exporter', () => {
  const r = parse('node-exporter.prom');
  it('parses without errors', () => expect(r.errors).toEqual([]));
  const h = readTelemetry(r).host!;
  it('CPU seconds: busy excludes idle and iowait, summed over CPUs', () => {
    expect(h.cpus).toBe(2);
    // cpu0: 0.01+0.19+34.1+0+210.45+444.9, cpu1: 0+0.23+0.46+0+164.74+478.69
    expect(h.cpuBusySeconds).toBeCloseTo(689.65 + 644.12, 6);
    expect(h.cpuTotalSeconds).toBeCloseTo(689.65 + 644.12 + 10870.69 + 2.2 + 11107.87 + 5.91, 6);
  });
  it('memory and network (loopback left out)', () => {
    expect(h.memTotalBytes).toBe(3831959552);
    expect(h.memAvailableBytes).toBe(1874034688);
    expect(h.netRxBytes).toBe(68210813);
    expect(h.netTxBytes).toBe(23911764);
  });
});

describe('edge cases', () => {
  it('a blank sentinel and NaN are no value; the graphics-engine ratio stands in for utilization', () => {
    const t = readTelemetry(
      parsePrometheus(
        [
          'DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-a"} 9223372036854775794',
          'DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-a"} NaN',
          'DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0",UUID="GPU-a"} 0.25',
          '',
        ].join('\n'),
      ),
    );
    expect(t.gpus).toHaveLength(1);
    expect(t.gpus[0]).toMatchObject({ powerW: null, fbUsedMiB: null, utilPct: 25 });
  });
  it('the same GPU listed per pod is counted once', () => {
    const t = readTelemetry(
      parsePrometheus(
        [
          'DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-a",pod="a"} 300',
          'DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-a",pod="b"} 300',
          '',
        ].join('\n'),
      ),
    );
    expect(t.gpus[0]!.powerW).toBe(300);
  });
});
