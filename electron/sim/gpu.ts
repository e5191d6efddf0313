/**
 * A synthetic NVIDIA dcgm-exporter beside the simulator (`GET /gpu-metrics`): N GPUs serving one
 * tensor-parallel engine, so each follows the batch occupancy. Power rises linearly from idle to
 * its board limit with occupancy; the energy counter (mJ, as DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION)
 * integrates that power exactly, piecewise between load changes, so a client's joules can be
 * checked against `energyJ()`. Names, help, types and labels as dcgm-exporter writes them
 * (test-corpus/metrics/dcgm-exporter.prom).
 */

export interface SimGpuOptions {
  gpus: number;
  /** false: leave DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION out (older GPUs, custom counter sets). */
  energyCounter: boolean;
}

const IDLE_W = 72;
const MAX_W = 700;
const FB_TOTAL_MIB = 81559;
/** Weights and activations that sit in memory whatever the load; the KV cache fills the rest. */
const FB_BASE_MIB = 17800;
const FB_KV_MIB = 60000;

export class SimGpus {
  private occupancy = 0;
  private kvUsage = 0;
  private lastMs: number;
  /** Joules per GPU since the simulator started. */
  private readonly joules: number[];

  constructor(
    readonly opts: SimGpuOptions,
    nowMs: number = performance.now(),
  ) {
    this.lastMs = nowMs;
    this.joules = Array.from({ length: opts.gpus }, () => 0);
  }

  /**
   * Each GPU's power at an occupancy (0–1). Tensor-parallel ranks do the same work, but boards
   * differ: the higher-indexed ones idle a little higher and draw less under load, so one line
   * per GPU stays visible.
   */
  powerW(gpu: number, occupancy = this.occupancy): number {
    return IDLE_W + 4 * gpu + (MAX_W - IDLE_W) * occupancy * (1 - 0.08 * gpu);
  }

  private integrate(nowMs: number): void {
    const dt = Math.max(0, nowMs - this.lastMs) / 1000;
    for (let i = 0; i < this.joules.length; i++) this.joules[i]! += this.powerW(i) * dt;
    this.lastMs = Math.max(this.lastMs, nowMs);
  }

  /** The batch changed: occupancy = running / max sequences, KV usage 0–1. */
  load(occupancy: number, kvUsage: number, nowMs: number = performance.now()): void {
    this.integrate(nowMs);
    this.occupancy = Math.min(1, Math.max(0, occupancy));
    this.kvUsage = Math.min(1, Math.max(0, kvUsage));
  }

  /** Total joules of every GPU up to now (the ground truth for energy-per-token checks). */
  energyJ(nowMs: number = performance.now()): number {
    this.integrate(nowMs);
    return this.joules.reduce((a, b) => a + b, 0);
  }

  render(nowMs: number = performance.now()): string {
    this.integrate(nowMs);
    const out: string[] = [];
    const family = (name: string, type: string, help: string, value: (gpu: number) => string): void => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (let i = 0; i < this.opts.gpus; i++) out.push(`${name}${labels(i)} ${value(i)}`);
    };
    const util = (i: number) =>
      this.occupancy > 0 ? Math.min(100, Math.round(35 + 65 * this.occupancy - 4 * i)) : 0;
    // Rank 0 holds a little more (the sampler, the embedding's extra rows).
    const used = (i: number) => Math.round(FB_BASE_MIB - 1400 * i + FB_KV_MIB * this.kvUsage);
    family('DCGM_FI_DEV_SM_CLOCK', 'gauge', 'SM clock frequency (in MHz).', () =>
      this.occupancy > 0 ? '1980' : '345',
    );
    family('DCGM_FI_DEV_GPU_TEMP', 'gauge', 'GPU temperature (in C).', (i) =>
      String(Math.round(34 + 40 * this.occupancy - i)),
    );
    family('DCGM_FI_DEV_POWER_USAGE', 'gauge', 'Power draw (in W).', (i) => this.powerW(i).toFixed(6));
    if (this.opts.energyCounter)
      family(
        'DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION',
        'counter',
        'Total energy consumption since boot (in mJ).',
        (i) => String(Math.floor(this.joules[i]! * 1000)),
      );
    family('DCGM_FI_DEV_GPU_UTIL', 'gauge', 'GPU utilization (in %).', (i) => String(util(i)));
    family('DCGM_FI_DEV_FB_FREE', 'gauge', 'Framebuffer memory free (in MiB).', (i) =>
      String(FB_TOTAL_MIB - used(i)),
    );
    family('DCGM_FI_DEV_FB_USED', 'gauge', 'Framebuffer memory used (in MiB).', (i) => String(used(i)));
    family(
      'DCGM_FI_PROF_PIPE_TENSOR_ACTIVE',
      'gauge',
      'Ratio of cycles the tensor (HMMA) pipe is active.',
      () => (0.45 * this.occupancy).toFixed(6),
    );
    return out.join('\n') + '\n';
  }
}

function labels(i: number): string {
  const uuid = `GPU-5157${String(i).padStart(4, '0')}-0000-4000-8000-00000000000${i % 10}`;
  return (
    `{gpu="${i}",UUID="${uuid}",pci_bus_id="00000000:${(0x18 + i).toString(16).toUpperCase()}:00.0",` +
    `device="nvidia${i}",modelName="Tokenscope Sim GPU",Hostname="tokenscope-sim"}`
  );
}
