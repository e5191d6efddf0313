/**
 * Exporter profiles for the telemetry endpoints a target lists beside its server's /metrics:
 * NVIDIA dcgm-exporter (one series per GPU) and Prometheus node_exporter (the host). Like the
 * server profiles (profiles.ts), each reading lists metric names in order and is recognised from
 * the family names a scrape exposes (test-corpus/metrics/SOURCES.md has the real formats).
 */
import type { Labels, MetricFamily, ParseResult, Sample } from './prom-types.ts';

/** @internal exported for its tests */
export type ExporterId = 'dcgm' | 'node' | 'unknown';

/** One GPU at one scrape; a field the exporter does not publish is null. */
export interface GpuReading {
  /** The series' identity across scrapes: the UUID, else host + index. */
  key: string;
  /** The GPU index (`gpu` label). */
  gpu: string;
  uuid: string | null;
  model: string | null;
  host: string | null;
  /** 0–100 (DCGM_FI_DEV_GPU_UTIL, else the graphics-engine activity ratio x 100). */
  utilPct: number | null;
  fbUsedMiB: number | null;
  fbFreeMiB: number | null;
  powerW: number | null;
  /** Energy since boot in joules (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION is mJ). A counter. */
  energyJ: number | null;
  /** 0–1 profiling ratios (DCGM_FI_PROF_*; only on datacenter GPUs with profiling on). */
  tensorActive: number | null;
  dramActive: number | null;
}

/** The host at one scrape (node_exporter); counters are totals since boot. */
interface HostReading {
  /** CPU seconds in every mode but idle and iowait, summed over CPUs. A counter. */
  cpuBusySeconds: number | null;
  /** CPU seconds in every mode, summed over CPUs. A counter. */
  cpuTotalSeconds: number | null;
  cpus: number;
  memTotalBytes: number | null;
  memAvailableBytes: number | null;
  /** Bytes over every device but loopback. Counters. */
  netRxBytes: number | null;
  netTxBytes: number | null;
}

export interface TelemetryReading {
  exporter: ExporterId;
  gpus: GpuReading[];
  host: HostReading | null;
}

/**
 * DCGM's "blank" sentinels (DCGM_INT64_BLANK = 0x7ffffff0 in 64 bits and its neighbours, e.g.
 * 9223372036854775794 for an unsupported field): a value that large is "not available".
 */
const DCGM_BLANK_FROM = 9.2e18;

interface GpuField {
  /** Metric names in order: the first one present wins. */
  names: readonly string[];
  scale: number;
}
const GPU_FIELDS: Record<
  'utilPct' | 'fbUsedMiB' | 'fbFreeMiB' | 'powerW' | 'energyJ' | 'tensorActive' | 'dramActive',
  readonly GpuField[]
> = {
  utilPct: [
    { names: ['DCGM_FI_DEV_GPU_UTIL'], scale: 1 },
    { names: ['DCGM_FI_PROF_GR_ENGINE_ACTIVE'], scale: 100 },
  ],
  fbUsedMiB: [{ names: ['DCGM_FI_DEV_FB_USED'], scale: 1 }],
  fbFreeMiB: [{ names: ['DCGM_FI_DEV_FB_FREE'], scale: 1 }],
  powerW: [
    { names: ['DCGM_FI_DEV_POWER_USAGE'], scale: 1 },
    { names: ['DCGM_FI_DEV_POWER_USAGE_INSTANT'], scale: 1 },
  ],
  energyJ: [{ names: ['DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION'], scale: 0.001 }],
  tensorActive: [{ names: ['DCGM_FI_PROF_PIPE_TENSOR_ACTIVE'], scale: 1 }],
  dramActive: [{ names: ['DCGM_FI_PROF_DRAM_ACTIVE'], scale: 1 }],
};

const byName = (families: readonly MetricFamily[]): Map<string, Sample[]> => {
  const m = new Map<string, Sample[]>();
  for (const f of families)
    for (const s of f.samples) {
      let list = m.get(s.name);
      if (list === undefined) m.set(s.name, (list = []));
      list.push(s);
    }
  return m;
};

/** Which exporter a scrape comes from: the prefix most of its families carry. @internal exported for its tests */
export function detectExporterId(parsed: ParseResult | readonly MetricFamily[]): ExporterId {
  const families = 'families' in parsed ? parsed.families : parsed;
  let dcgm = 0;
  let node = 0;
  for (const f of families) {
    if (f.name.startsWith('DCGM_FI_')) dcgm++;
    else if (f.name.startsWith('node_')) node++;
  }
  if (dcgm === 0 && node === 0) return 'unknown';
  return dcgm >= node ? 'dcgm' : 'node';
}

const gpuKey = (l: Labels): string => l.UUID ?? l.uuid ?? `${l.Hostname ?? l.hostname ?? ''}#${l.gpu ?? '?'}`;

function readGpus(samples: Map<string, Sample[]>): GpuReading[] {
  const gpus = new Map<string, GpuReading>();
  const gpuOf = (l: Labels): GpuReading => {
    const key = gpuKey(l);
    let g = gpus.get(key);
    if (g === undefined) {
      g = {
        key,
        gpu: l.gpu ?? '?',
        uuid: l.UUID ?? l.uuid ?? null,
        model: l.modelName ?? l.model_name ?? null,
        host: l.Hostname ?? l.hostname ?? null,
        utilPct: null,
        fbUsedMiB: null,
        fbFreeMiB: null,
        powerW: null,
        energyJ: null,
        tensorActive: null,
        dramActive: null,
      };
      gpus.set(key, g);
    }
    return g;
  };
  for (const [field, alts] of Object.entries(GPU_FIELDS) as [keyof typeof GPU_FIELDS, GpuField[]][]) {
    for (const alt of alts) {
      const name = alt.names.find((n) => samples.has(n));
      if (name === undefined) continue;
      // MIG: one GPU can have several instances; a device-level field is the same on each, and a
      // per-instance one adds up to the device (sum of the ones present, counted once per UUID).
      const seen = new Map<string, number>();
      for (const s of samples.get(name) ?? []) {
        if (!Number.isFinite(s.value) || s.value >= DCGM_BLANK_FROM) continue;
        const g = gpuOf(s.labels);
        const v = s.value * alt.scale;
        const id = `${g.key}|${s.labels.GPU_I_ID ?? ''}`;
        if (seen.has(id)) continue;
        seen.set(id, v);
        g[field] = (g[field] ?? 0) + v;
      }
      break;
    }
  }
  return [...gpus.values()].sort((a, b) => Number(a.gpu) - Number(b.gpu) || (a.key < b.key ? -1 : 1));
}

function sumOf(list: Sample[] | undefined, keep: (l: Labels) => boolean = () => true): number | null {
  if (list === undefined) return null;
  let sum = 0;
  let n = 0;
  for (const s of list)
    if (keep(s.labels) && Number.isFinite(s.value)) {
      sum += s.value;
      n++;
    }
  return n > 0 ? sum : null;
}

function readHost(samples: Map<string, Sample[]>): HostReading | null {
  const cpu = samples.get('node_cpu_seconds_total');
  const notLo = (l: Labels): boolean => l.device !== 'lo';
  const host: HostReading = {
    cpuBusySeconds: sumOf(cpu, (l) => l.mode !== 'idle' && l.mode !== 'iowait'),
    cpuTotalSeconds: sumOf(cpu),
    cpus: new Set((cpu ?? []).map((s) => s.labels.cpu)).size,
    memTotalBytes: sumOf(samples.get('node_memory_MemTotal_bytes')),
    memAvailableBytes:
      sumOf(samples.get('node_memory_MemAvailable_bytes')) ?? sumOf(samples.get('node_memory_MemFree_bytes')),
    netRxBytes: sumOf(samples.get('node_network_receive_bytes_total'), notLo),
    netTxBytes: sumOf(samples.get('node_network_transmit_bytes_total'), notLo),
  };
  const any = Object.entries(host).some(([k, v]) => k !== 'cpus' && v !== null);
  return any ? host : null;
}

/** The GPUs and the host one telemetry scrape describes. */
export function readTelemetry(parsed: ParseResult): TelemetryReading {
  const samples = byName(parsed.families);
  return { exporter: detectExporterId(parsed), gpus: readGpus(samples), host: readHost(samples) };
}
