/**
 * The accuracy bench's arithmetic (bench/accuracy.bench.ts): one client run's errors against the
 * server's truth, their statistics, every repeat pooled, engine ÷ baseline ratios, and the JSON a
 * load reports.
 */
import { pct, sortedOf, type ClientResult, type Truth, type TruthSteps } from './common.ts';
import type { ClientKind } from './options.ts';

interface Samples {
  ttft: number[];
  itl: number[];
  over1: number;
  /** ITL pairs measured (truth certain), and left out (a chunk of the pair has an uncertain truth). */
  pairs: number;
  uncertain: number;
  ttftUncertain: number;
  /** Over every pair, truth certain or not (coalescing does not depend on the truth). */
  allPairs: number;
  coalesced: number;
  ok: number;
  failed: number;
  unmatched: number;
}

export interface Stats {
  requests: number;
  ok: number;
  failed: number;
  unmatched: number;
  ttftErrP50Ms: number;
  ttftErrP99Ms: number;
  ttftErrMaxMs: number;
  ttftErrMinMs: number;
  itlAbsErrP50Ms: number;
  itlAbsErrP90Ms: number;
  itlAbsErrP99Ms: number;
  itlAbsErrMaxMs: number;
  /** Signed ITL error: a late chunk makes one gap too long (+) and the next too short (−). */
  itlErrP1Ms: number;
  itlErrP99Ms: number;
  itlPairs: number;
  itlOver1msPct: number;
  /** ITL pairs where the chunk came in the same read as the one before (gap measured 0). */
  coalescedPct: number;
  /** Chunks (TTFT) and pairs (ITL) left out: the server's write took > truthWidthMs (descheduled). */
  uncertainTruthPct: number;
  cpuPct: number;
}

/** One client run: its statistics, the samples behind them (for pooling), and the server's side. */
export interface RunOut {
  repeat: number;
  stats: Stats;
  samples: Samples;
  cpuMs: number;
  wallMs: number;
  server: TruthSteps & { cpuPct: number; writeP50Us: number; writeP99Us: number };
  notes: string[];
  extra: Record<string, unknown>;
}

interface Ratios {
  ttftErrP99: number;
  itlAbsErrP99: number;
  perRepeat: ({ repeat: number; ttft: number; itl: number } | null)[];
}

/** Every run of one load (number of streams), pooled per client, and engine ÷ baseline. */
export interface LoadResult {
  streams: number;
  runs: Record<ClientKind, RunOut[]>;
  errors: string[];
  pooled: Record<ClientKind, Stats | null>;
  ratios: Ratios | null;
}

function samplesOf(c: ClientResult, truth: Truth, T: number, maxWidthMs: number): Samples {
  const byRid = new Map(truth.requests.map((r) => [r.rid, r]));
  const s: Samples = {
    ttft: [],
    itl: [],
    over1: 0,
    pairs: 0,
    uncertain: 0,
    ttftUncertain: 0,
    allPairs: 0,
    coalesced: 0,
    ok: 0,
    failed: 0,
    unmatched: 0,
  };
  for (const r of c.requests) {
    if (!r.ok) {
      s.failed++;
      continue;
    }
    const g = r.rid === null ? undefined : byRid.get(r.rid);
    if (!g || g.chunks.length !== T || r.content.length !== T) {
      s.unmatched++;
      continue;
    }
    s.ok++;
    const w = g.widths;
    if (w[0]! <= maxWidthMs) s.ttft.push(r.content[0]! - g.chunks[0]!);
    else s.ttftUncertain++;
    for (let k = 1; k < T; k++) {
      s.allPairs++;
      if (r.sameRead[k]) s.coalesced++;
      if (w[k]! > maxWidthMs || w[k - 1]! > maxWidthMs) {
        s.uncertain++;
        continue;
      }
      const e = r.content[k]! - r.content[k - 1]! - (g.chunks[k]! - g.chunks[k - 1]!);
      s.itl.push(e);
      s.pairs++;
      if (Math.abs(e) > 1) s.over1++;
    }
  }
  return s;
}

/** How long the server's writes took (before → after stamp), µs. */
function writeWidths(t: Truth): { writeP50Us: number; writeP99Us: number } {
  const w = sortedOf(t.requests.flatMap((r) => r.widths));
  return { writeP50Us: Math.round(pct(w, 50) * 1000), writeP99Us: Math.round(pct(w, 99) * 1000) };
}

const r3 = (v: number): number => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v);

function statsOf(s: Samples, requests: number, cpuPct: number): Stats {
  const tt = sortedOf(s.ttft);
  const signed = sortedOf(s.itl);
  const abs = sortedOf(s.itl.map(Math.abs));
  return {
    requests,
    ok: s.ok,
    failed: s.failed,
    unmatched: s.unmatched,
    ttftErrP50Ms: r3(pct(tt, 50)),
    ttftErrP99Ms: r3(pct(tt, 99)),
    ttftErrMaxMs: r3(pct(tt, 100)),
    ttftErrMinMs: r3(pct(tt, 0)),
    itlAbsErrP50Ms: r3(pct(abs, 50)),
    itlAbsErrP90Ms: r3(pct(abs, 90)),
    itlAbsErrP99Ms: r3(pct(abs, 99)),
    itlAbsErrMaxMs: r3(pct(abs, 100)),
    itlErrP1Ms: r3(pct(signed, 1)),
    itlErrP99Ms: r3(pct(signed, 99)),
    itlPairs: s.pairs,
    itlOver1msPct: s.pairs ? r3((100 * s.over1) / s.pairs) : NaN,
    coalescedPct: s.allPairs ? r3((100 * s.coalesced) / s.allPairs) : NaN,
    uncertainTruthPct: s.allPairs ? r3((100 * (s.uncertain + s.ttftUncertain)) / (s.allPairs + s.ok)) : NaN,
    cpuPct: Math.round(cpuPct),
  };
}

/** One client run (repeat `repeat`) against the truth the server logged over it. */
export function runOutOf(
  repeat: number,
  c: ClientResult,
  truth: Truth,
  tokens: number,
  truthWidthMs: number,
): RunOut {
  const samples = samplesOf(c, truth, tokens, truthWidthMs);
  return {
    repeat,
    stats: statsOf(samples, c.requests.length, c.cpuPct),
    samples,
    cpuMs: c.cpuMs,
    wallMs: c.wallMs,
    server: { ...truth.steps, cpuPct: truth.cpuPct, ...writeWidths(truth) },
    notes: c.notes,
    extra: c.extra,
  };
}

/** Every repeat's samples together. */
function pooled(rs: RunOut[]): Stats | null {
  if (rs.length === 0) return null;
  const sum = (k: keyof Samples): number => rs.reduce((a, r) => a + (r.samples[k] as number), 0);
  const all: Samples = {
    ttft: rs.flatMap((r) => r.samples.ttft),
    itl: rs.flatMap((r) => r.samples.itl),
    over1: sum('over1'),
    pairs: sum('pairs'),
    uncertain: sum('uncertain'),
    ttftUncertain: sum('ttftUncertain'),
    allPairs: sum('allPairs'),
    coalesced: sum('coalesced'),
    ok: sum('ok'),
    failed: sum('failed'),
    unmatched: sum('unmatched'),
  };
  const cpu = (100 * rs.reduce((a, r) => a + r.cpuMs, 0)) / rs.reduce((a, r) => a + r.wallMs, 0);
  return statsOf(
    all,
    rs.reduce((a, r) => a + r.stats.requests, 0),
    cpu,
  );
}

const ratio = (a: number, b: number): number =>
  b > 0 && Number.isFinite(a) ? Math.round((100 * a) / b) / 100 : NaN;

/** Pools each client's runs of one load and sets the engine's p99 errors against the baseline's. */
export function summarizeLoad(
  streams: number,
  runs: Record<ClientKind, RunOut[]>,
  errors: string[],
): LoadResult {
  const pb = pooled(runs.baseline);
  const pe = pooled(runs.engine);
  const perRun = runs.engine.map((e) => {
    const b = runs.baseline.find((x) => x.repeat === e.repeat);
    return b
      ? {
          repeat: e.repeat,
          ttft: ratio(e.stats.ttftErrP99Ms, b.stats.ttftErrP99Ms),
          itl: ratio(e.stats.itlAbsErrP99Ms, b.stats.itlAbsErrP99Ms),
        }
      : null;
  });
  const ratios =
    pb && pe
      ? {
          ttftErrP99: ratio(pe.ttftErrP99Ms, pb.ttftErrP99Ms),
          itlAbsErrP99: ratio(pe.itlAbsErrP99Ms, pb.itlAbsErrP99Ms),
          perRepeat: perRun,
        }
      : null;
  return { streams, runs, errors, pooled: { baseline: pb, engine: pe }, ratios };
}

function strip(r: RunOut): Record<string, unknown> {
  return {
    ...r.stats,
    wallMs: Math.round(r.wallMs),
    server: Object.fromEntries(Object.entries(r.server).map(([k, v]) => [k, r3(v)])),
    ...(r.notes.length ? { notes: r.notes } : {}),
    ...(r.extra.selfCheck ? { selfCheck: r.extra.selfCheck } : {}),
  };
}

/** One load's entry in the JSON report. */
export function loadJson(l: LoadResult): Record<string, unknown> {
  const { baseline: pb, engine: pe } = l.pooled;
  return {
    streams: l.streams,
    ...(pb ? { baseline: { ...pb, runs: l.runs.baseline.map(strip) } } : {}),
    ...(pe ? { engine: { ...pe, runs: l.runs.engine.map(strip) } } : {}),
    engineOverBaselineP99: l.ratios,
    ...(l.errors.length ? { errors: l.errors } : {}),
  };
}
