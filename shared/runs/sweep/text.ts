/**
 * What `tokenscope sweep` prints: a table row per step as it completes (under one header), then the
 * knee and the SLO search's answer with its bracket and how sure each bound is. A target that
 * answers whole (embeddings, rerank: pooling.ts, `streams` false) has its own columns: inputs/s and
 * input tok/s for output tok/s and tok/s per user, no TTFT or ITL, E2E's p50/p90/p99.
 */
import type { SweepFile, SweepLoad, SweepStep } from './file.ts';
import { sweepStreams, throughputLabel } from './pooling.ts';

const COLS: [string, number][] = [
  ['step', 4],
  ['load', 13],
  ['req/s', 7],
  ['out tok/s', 9],
  ['goodput', 7],
  ['tok/s/user', 10],
  ['TTFT p50/p99', 15],
  ['ITL p50/p99', 13],
  ['E2E p50/p99', 15],
  ['note', 0],
];

const POOLED_COLS: [string, number][] = [
  ['step', 4],
  ['load', 13],
  ['req/s', 7],
  ['inputs/s', 8],
  ['in tok/s', 9],
  ['goodput', 7],
  ['E2E p50/p90/p99', 20],
  ['note', 0],
];

const pad = (s: string, w: number): string => (w === 0 ? s : s.padStart(w));

export function loadText(l: SweepLoad): string {
  return l.kind === 'rate' ? `rate ${l.value === 'inf' ? 'inf' : `${fmt(l.value)}/s`}` : `conc ${l.value}`;
}

function fmt(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (Math.abs(x) >= 1000) return x.toFixed(0);
  return Number(x.toPrecision(digits)).toString();
}

const pair = (p: SweepStep['numbers']['ttft']): string => (p ? `${fmt(p.p50)}/${fmt(p.p99)}` : '–');

export function stepHeader(streams = true): string {
  return (streams ? COLS : POOLED_COLS)
    .map(([n, w]) => pad(n, w))
    .join('  ')
    .trimEnd();
}

/**
 * Why a step was judged over-saturated, in words: the queue's growth against the noise it allows,
 * and TTFT's rise ("" for an older file without the queue's numbers).
 */
export function saturationReason(sat: SweepStep['saturation'], streams = true): string {
  const q = sat?.queue;
  if (!q) return '';
  // Without a stream the latency watched is E2E (electron/runs/sweep/step-run.ts).
  const ttft = sat.ttft?.significant ? `, ${streams ? 'TTFT' : 'E2E'} +${fmt(sat.ttft.gain)} ms` : '';
  return (
    `${fmt(q.arrived)} arrived, ${fmt(q.completed)} done in ${fmt(q.windowMs / 1000, 2)} s:` +
    ` queue +${fmt(q.growth)} (noise ±${fmt(q.tolerance, 2)})${ttft}`
  );
}

export function stepRow(s: SweepStep, streams = true): string {
  const n = s.numbers;
  const notes: string[] = [];
  if (s.role === 'confirm') notes.push('re-run');
  else if (s.role !== 'step' && s.role !== 'search') notes.push(s.role);
  if (s.stoppedEarly === 'over-saturated') {
    notes.push(s.role === 'confirm' ? 'OVER-SATURATED again: confirmed' : 'OVER-SATURATED: stopped early');
    const why = saturationReason(s.saturation, streams);
    if (why) notes.push(why);
  } else if (s.stoppedEarly) notes.push(s.stoppedEarly);
  else if (s.role === 'confirm') notes.push('not over-saturated: the climb goes on');
  if (s.saturation?.judged === false) notes.push('too short to judge over-saturation');
  if (n.failed > 0) notes.push(`${n.failed} failed`);
  if (s.slo) notes.push(`SLO ${s.slo.verdict}${s.slo.runs > 1 ? ` (${s.slo.runs} runs pooled)` : ''}`);
  const cells = streams
    ? [
        String(s.index + 1),
        loadText(s.load),
        fmt(n.requestsPerS),
        fmt(n.outputTokPerS, 4),
        fmt(n.goodputReqPerS),
        fmt(n.tokPerSPerUser),
        pair(n.ttft),
        pair(n.itl),
        pair(n.e2el),
        notes.join('; '),
      ]
    : [
        String(s.index + 1),
        loadText(s.load),
        fmt(n.requestsPerS),
        fmt(n.inputsPerS, 4),
        fmt(n.inputTokPerS, 4),
        fmt(n.goodputReqPerS),
        n.e2el ? `${fmt(n.e2el.p50)}/${fmt(n.e2el.p90)}/${fmt(n.e2el.p99)}` : '–',
        notes.join('; '),
      ];
  const cols = streams ? COLS : POOLED_COLS;
  return cells
    .map((c, i) => pad(c, cols[i]![1]))
    .join('  ')
    .trimEnd();
}

function kneeLine(name: string, k: SweepFile['knee']['ttft'], f: SweepFile): string {
  const x = throughputLabel(sweepStreams(f));
  if (!k)
    return `Knee (p99 ${name} vs ${x}): none (p99 latency did not double over the sweep's steady steps, ended no higher than it began, or never rose faster than throughput)`;
  const s = f.steps.find((x) => x.index === k.stepIndex);
  return (
    `Knee (p99 ${name} vs ${x}): step ${k.stepIndex + 1}, ${s ? loadText(s.load) : k.load}` +
    ` — ${fmt(k.throughput, 4)} ${x.replace('output ', '')} at p99 ${name} ${fmt(k.latency)} ms; to the next step latency rose ` +
    (k.elasticity === 'inf'
      ? 'with no throughput gained'
      : `${fmt(k.elasticity, 2)}× as fast as throughput (relative)`)
  );
}

export function sweepFooter(f: SweepFile): string {
  const streams = sweepStreams(f);
  const lines = [...(streams ? [kneeLine('TTFT', f.knee.ttft, f)] : []), kneeLine('E2E', f.knee.e2el, f)];
  if (f.stopped?.reason === 'over-saturated')
    lines.push(
      `Stopped at step ${f.stopped.atStep + 1}: the server was over-saturated (fewer requests completed than arrived, the queue growing beyond noise, ${streams ? 'TTFT' : 'E2E latency'} rising — on a re-run too); no higher load was run.`,
    );
  if (f.slo) {
    const s = f.slo;
    const unit = s.search === 'rate' ? ' req/s' : ' concurrent';
    const b = (x: NonNullable<typeof s.passing>): string =>
      `${fmt(x.load, 4)}${unit} (${x.decidedBy === 'interval' ? '95 % intervals clear of the limits' : 'inside the noise after ' + x.runs + ' runs: point estimate'})`;
    lines.push(`SLO ${s.terms}:`);
    if (!s.passing)
      lines.push(
        `  no load tried met it${s.failing ? ` (lowest tried: ${fmt(s.failing.load, 4)}${unit})` : ''}`,
      );
    else {
      lines.push(`  highest passing: ${b(s.passing)}`);
      lines.push(`  lowest failing:  ${s.failing ? b(s.failing) : 'none tried'}`);
      if (s.failing)
        lines.push(
          `  answer: ${fmt(s.passing.load, 4)}${unit}, within [${fmt(s.passing.load, 4)}, ${fmt(s.failing.load, 4)}) (${fmt(((s.failing.load - s.passing.load) / s.passing.load) * 100, 2)} % bracket)`,
        );
    }
    const why = {
      converged: 'converged',
      budget: 'step budget spent',
      'none-passes': 'nothing passes',
      stopped: 'stopped',
    }[s.reason];
    lines.push(`  search: ${why}, ${f.steps.length} steps`);
  }
  return lines.join('\n') + '\n';
}
