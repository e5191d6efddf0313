import { describe, expect, it } from 'vitest';
import type { GpuReading } from '../../metrics/telemetry.ts';
import { energyOverWindow, perToken, type GpuTick } from './energy.ts';

const gpu = (key: string, energyJ: number | null, powerW: number | null): GpuReading => ({
  key,
  gpu: key,
  uuid: null,
  model: null,
  host: null,
  utilPct: 50,
  fbUsedMiB: 1000,
  fbFreeMiB: 1000,
  powerW,
  energyJ,
  tensorActive: null,
  dramActive: null,
});

describe('energyOverWindow', () => {
  it('sums every GPU counter increase, across a counter reset', () => {
    const ticks: GpuTick[] = [
      { t: 1000, gpus: [gpu('a', 100, 300), gpu('b', 50, 300)] },
      { t: 2000, gpus: [gpu('a', 400, 300), gpu('b', 350, 300)] },
      { t: 3000, gpus: [gpu('a', 20, 300), gpu('b', 650, 300)] }, // a restarted: +20
    ];
    const e = energyOverWindow(ticks, 1500)!;
    expect(e.method).toBe('counter');
    expect(e.joules).toBe(300 + 20 + 600);
    expect(e.gpus).toBe(2);
    expect(e.windowMs).toEqual({ fromMs: -500, toMs: 1500 });
    expect(e.meanPowerW).toBe(920 / 2);
    const t = perToken(e, 460);
    expect(t.joulesPerToken).toBe(2);
    expect(perToken(e, 0).joulesPerToken).toBeNull();
  });

  it('integrates power where a GPU has no counter; says mixed', () => {
    const ticks: GpuTick[] = [
      { t: 0, gpus: [gpu('a', null, 100), gpu('b', 0, 999)] },
      { t: 2000, gpus: [gpu('a', null, 300), gpu('b', 10, 999)] },
    ];
    const e = energyOverWindow(ticks, 0)!;
    expect(e.method).toBe('mixed');
    expect(e.joules).toBe(400 + 10); // (100+300)/2 W x 2 s, and b's counter (its power ignored)
    const p = energyOverWindow(
      ticks.map((k) => ({ ...k, gpus: k.gpus.slice(0, 1) })),
      0,
    )!;
    expect(p.method).toBe('integrated-power');
  });

  it('null with fewer than two readings of any GPU', () => {
    expect(energyOverWindow([{ t: 0, gpus: [gpu('a', 1, 1)] }], 0)).toBeNull();
    expect(energyOverWindow([], 0)).toBeNull();
  });
});
