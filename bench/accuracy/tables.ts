/**
 * The accuracy bench's tables on stderr (bench/accuracy.bench.ts): per load, a row per client run
 * (and pooled), engine ÷ baseline, the server's worst run, failures, notes and the engine's
 * self-check.
 */
import type { AccuracyOptions } from './options.ts';
import type { LoadResult, RunOut, Stats } from './stats.ts';

export const log = (s: string): boolean => process.stderr.write(s + '\n');

function fmt(v: number, w = 7): string {
  const digits = Number.isInteger(v) ? 0 : Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 10 ? 2 : 3;
  return (Number.isFinite(v) ? v.toFixed(digits) : '–').padStart(w);
}

function row(label: string, s: Stats): string {
  return (
    label.padEnd(14) +
    `${s.ok}/${s.requests}`.padStart(10) +
    ' │' +
    fmt(s.ttftErrP50Ms) +
    fmt(s.ttftErrP99Ms) +
    fmt(s.ttftErrMaxMs, 8) +
    ' │' +
    fmt(s.itlAbsErrP50Ms) +
    fmt(s.itlAbsErrP99Ms) +
    fmt(s.itlAbsErrMaxMs, 8) +
    ' │' +
    `${fmt(s.itlOver1msPct, 6)}%` +
    `${fmt(s.coalescedPct, 6)}%` +
    `${String(s.cpuPct).padStart(5)}%`
  );
}

/** The heading, a row per run, then each client's pooled row (when there are repeats to pool). */
function printRuns(l: LoadResult, o: AccuracyOptions): void {
  const head = `${l.streams} streams × ${o.stepMs} ms × ${o.tokens} tokens, ${o.repeats} repeat${o.repeats > 1 ? 's' : ''} (ms; TTFT error = client stamp − server write of the 1st content chunk; ITL error = measured − true gap)`;
  log('');
  log(head);
  log(
    'client        ok/reqs    │ TTFT err p50    p99     max │ |ITL err| p50  p99     max │  > 1 ms  coal.  CPU',
  );
  for (const kind of o.clients) {
    for (const r of l.runs[kind]) log(row(`${kind} #${r.repeat}`, r.stats));
  }
  for (const kind of o.clients) {
    const p = l.pooled[kind];
    if (p && o.repeats > 1) log(row(`${kind} all`, p));
  }
}

function printRatios(l: LoadResult, o: AccuracyOptions): void {
  const ratios = l.ratios;
  if (!ratios) return;
  const pr = (k: 'ttft' | 'itl'): string => ratios.perRepeat.map((x) => (x ? `${x[k]}×` : '–')).join(', ');
  log(
    `engine ÷ baseline p99: TTFT error ${ratios.ttftErrP99}×` +
      (o.repeats > 1 ? ` (repeats ${pr('ttft')})` : '') +
      ` · |ITL error| ${ratios.itlAbsErrP99}×` +
      (o.repeats > 1 ? ` (repeats ${pr('itl')})` : ''),
  );
}

/** The server's side, worst over every run of the load. */
function printServer(l: LoadResult, o: AccuracyOptions): void {
  const all = [...l.runs.baseline, ...l.runs.engine];
  if (!all.length) return;
  const worst = (f: (r: RunOut) => number): string => fmt(Math.max(...all.map(f)), 0);
  log(
    `server (worst run): step spread p99 ${worst((r) => r.server.spanP99Ms)} ms · ` +
      `step start late p99 ${worst((r) => r.server.lateP99Ms)} ms · ` +
      `steps a whole step late ${worst((r) => r.server.behind)} · ` +
      `write p50 ${worst((r) => r.server.writeP50Us)} µs, p99 ${worst((r) => r.server.writeP99Us)} µs · ` +
      `writes the kernel did not take at once ${worst((r) => r.server.queuedWrites)} · ` +
      `left out, write took > ${o.truthWidthMs} ms ${worst((r) => r.stats.uncertainTruthPct)}% · ` +
      `CPU ${worst((r) => r.server.cpuPct)}%`,
  );
}

function printSelfCheck(l: LoadResult): void {
  const sc = l.runs.engine.map((r) => r.extra.selfCheck as Record<string, unknown> | null);
  if (!sc.length) return;
  log(
    'engine self-check: ' +
      sc
        .map((s) => {
          const ioS = s?.io as Record<string, number> | null | undefined;
          return s
            ? `main ELD p99 ${fmt(s.eventLoopDelayP99Ms as number, 0)} ms, ` +
                (ioS
                  ? `I/O thread ×${ioS.threads} loop delay p99 ${fmt(ioS.loopDelayP99Ms!, 0)} ms, GC max ${fmt(ioS.gcMaxMs!, 0)} ms`
                  : 'stamping inline') +
                (s.flagged ? ' (flagged)' : '')
            : '–';
        })
        .join(' | '),
  );
}

/** Everything one load prints, in order. */
export function printLoad(l: LoadResult, o: AccuracyOptions): void {
  printRuns(l, o);
  printRatios(l, o);
  printServer(l, o);
  if (l.errors.length) log(`failed runs: ${l.errors.length}`);
  for (const kind of o.clients) {
    const notes = [...new Set(l.runs[kind].flatMap((r) => r.notes))];
    if (notes.length) log(`${kind} notes: ${notes.join('; ')}`);
  }
  printSelfCheck(l);
}
