/**
 * The live run: progress with ETA, phase, counts, the client self-check (with a warning when its
 * timing may be off), throughput and concurrency over time, the swimlane, live percentiles and
 * CDFs. Counters follow every progress tick (≤ 4 Hz); charts refresh once a second.
 */
import { memo, useDeferredValue } from 'react';
import { C } from '../../core/charts/theme.ts';
import { fmtCompact, fmtLatency } from '../../core/format.ts';
import { liveLanes } from './lane-store.ts';
import { COALESCED_DEF, coalescedShareText } from '../../core/coalesced-text.ts';
import { DIST_METRICS, ESTIMATED_COUNTS_DEF } from '../charts/metric-defs.ts';
import { cancelRun, openRun } from '../run-actions.ts';
import { cdfPoints, fmtEta } from '../charts/run-series.ts';
import { useRunsStore, type LiveCharts as LiveChartsData, type LiveRun } from '../run-store.ts';
import type { LiveSnapshot, RunProgress } from '../../../shared/runs/live/progress-types.ts';
import { CdfChart } from '../charts/CdfChart.tsx';
import { OverTimeCharts } from '../charts/OverTimeCharts.tsx';
import { Swimlane } from './Swimlane.tsx';
import { isNonStreamingDialect } from '../../../shared/dialects.ts';
import { BatchCounts } from './BatchCounts.tsx';

/**
 * Whether the live run streams tokens: not for embeddings/rerank (the target's dialect; before
 * its header arrives, a progress with `batch` says so). Their TTFT/ITL/TPOT rows, CDFs and the
 * output-token chart are left out, not shown empty.
 */
function useLiveStreams(): boolean {
  return useRunsStore((s) => {
    const d = s.live?.header?.target.dialect;
    return d ? !isNonStreamingDialect(d) : s.live?.progress?.batch === undefined;
  });
}

/** The live metrics shown: all of them for a stream, latency and queue time alone for a batch run. */
function liveMetrics(streams: boolean) {
  return streams ? DIST_METRICS : DIST_METRICS.filter((m) => m.id === 'e2el' || m.id === 'client_queue_time');
}

const PHASE_LABEL: Record<string, string> = {
  test: 'test request',
  warmup: 'warming up',
  running: 'running',
  draining: 'draining',
  done: 'done',
  cancelled: 'cancelled',
};

/** @internal exported for its tests */
export function phaseOf(live: LiveRun): string {
  if (live.finished) return live.finished.cancelled ? 'cancelled' : live.finished.error ? 'failed' : 'done';
  const p = live.progress;
  // Every request has arrived, but some still wait for a slot, or sessions still send their
  // next steps: still running, not draining.
  if (p?.phase === 'draining' && (p.queued > 0 || p.sessions)) return 'running';
  return p?.phase ?? 'starting';
}

/**
 * The parts re-render on their own narrow selections: the header at every progress tick, the
 * charts once a second, the swimlane never (it draws itself). Memoised, so a parent's render
 * does not drag the recharts charts along.
 */
export function LiveDashboard() {
  const runId = useRunsStore((s) => s.live?.runId);
  if (!runId) return <p className="empty">No run is going on.</p>;
  return (
    <div className="run-dash" data-testid="run-dashboard" data-run-id={runId}>
      <LiveTop />
      <LiveCharts />
      <LiveSwimlane />
      <LiveStatsTable />
      <LiveDists />
    </div>
  );
}

function LiveTop() {
  const live = useRunsStore((s) => s.live);
  if (!live) return null;
  return (
    <>
      <LiveHeader live={live} />
      <SelfCheckLive live={live} />
    </>
  );
}

const LiveSwimlane = memo(function LiveSwimlane() {
  const following = useRunsStore((s) => !!s.live && !s.live.finished);
  const streams = useLiveStreams();
  return (
    <section className="card" aria-label="Swimlane">
      <header className="card-head">
        <h3 title="One lane per request: grey = waiting for a client slot (queue), cyan = sent, waiting for the first token, blue = generating (a tick per token event), red = failed. A row is reused by a later request once its request ended.">
          Requests (swimlane)
        </h3>
        <SwimLegend streams={streams} />
        <span className="spacer" />
        <span className="muted">
          last 60 s, following time · hover a lane · wheel zooms lanes, drag pans, double-click resets
        </span>
      </header>
      <Swimlane store={liveLanes} live={following} testId="run-swimlane" />
    </section>
  );
});

/** `streams` false (embeddings, rerank): a request waits for one answer, no token arrives. */
export function SwimLegend({ streams = true }: { streams?: boolean }) {
  return (
    <ul className="legend">
      <li>
        <i className="sw band" style={{ background: C.laneQueue }} /> queue
      </li>
      <li>
        <i className="sw band" style={{ background: C.laneWait }} />{' '}
        {streams ? 'to first token' : 'sent, to the answer'}
      </li>
      {streams && (
        <>
          <li>
            <i className="sw band" style={{ background: C.laneGen }} /> generating
          </li>
          <li>
            <i className="sw bar" style={{ background: C.laneTick }} /> token event
          </li>
        </>
      )}
      <li>
        <i className="sw band" style={{ background: C.error }} /> failed
      </li>
    </ul>
  );
}

function progressText(p: RunProgress | null): string {
  if (!p) return 'starting…';
  if (p.phase === 'test') return 'sending one test request before the clock starts…';
  if (p.phase === 'warmup') return `warm-up ${p.warmupDone} / ${p.warmupTotal}`;
  const done = p.completed + p.failed;
  if (p.sessions) return `${p.sessions.done} / ${p.sessions.total} sessions · ${done} requests`;
  if (p.total !== null) return `${done} / ${p.total} requests`;
  if (p.durationMs !== null)
    return `${(p.elapsedMs / 1000).toFixed(0)} / ${(p.durationMs / 1000).toFixed(0)} s · ${done} requests`;
  return `${done} requests`;
}

/** Where a run on several targets in turn stands: this one, the ones before and after. */
function SequenceLine() {
  const q = useRunsStore((s) => s.sequence);
  if (!q) return null;
  return (
    <ol className="run-sequence" data-testid="run-sequence" aria-label="Runs on several targets">
      {q.targets.map((t, i) => (
        <li key={t.id} className={i < q.index ? 'done' : i === q.index ? 'now' : 'next'}>
          {i + 1}. {t.name}
        </li>
      ))}
      <li className="then">then side by side</li>
    </ol>
  );
}

function LiveHeader({ live }: { live: LiveRun }) {
  const p = live.progress;
  const phase = phaseOf(live);
  const pct = Math.round((p?.fraction ?? 0) * 1000) / 10;
  const going = !live.finished;
  const h = live.header;
  return (
    <section className="card run-head" aria-label="Run progress">
      <div className="row gap wrap">
        <h2 className="run-title">{h?.name || 'Load run'}</h2>
        <span className={`badge phase-${phase}`} data-testid="run-phase" data-phase={phase}>
          {PHASE_LABEL[phase] ?? phase}
        </span>
        {h && (
          <span className="muted mono" title={h.target.url}>
            {h.target.model} · {h.target.url}
          </span>
        )}
        <span className="spacer" />
        {going ? (
          <button
            type="button"
            className="btn danger small"
            data-testid="run-cancel"
            disabled={live.cancelling}
            onClick={() => void cancelRun()}
          >
            {live.cancelling ? 'Cancelling…' : 'Cancel run'}
          </button>
        ) : (
          live.key &&
          live.finished?.summary && (
            <button type="button" className="btn small" onClick={() => void openRun(live.key!)}>
              Open summary
            </button>
          )
        )}
      </div>
      <div
        className="run-progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        data-testid="run-progress"
        data-fraction={p?.fraction ?? 0}
        data-done={p ? p.completed + p.failed : 0}
      >
        {/* Keyed by run: the next run of a sequence starts from 0, not sliding down from 100 %. */}
        <div key={live.runId} className={`run-progress-bar ${phase}`} style={{ width: `${pct}%` }} />
        <span className="run-progress-text">
          {pct.toFixed(pct < 10 ? 1 : 0)} % · {progressText(p)}
          {going && p && p.phase !== 'warmup' && p.phase !== 'test' && <> · ETA {fmtEta(p.etaMs)}</>}
        </span>
      </div>
      <SequenceLine />
      {live.finished?.error && <p className="field-error">The run failed: {live.finished.error}</p>}
      {live.finished?.fileError && (
        <p className="field-error">The run file could not be written completely: {live.finished.fileError}</p>
      )}
      <dl className="run-counts">
        <Count label="completed" value={p?.completed} testId="run-completed" tone="ok" />
        <Count
          label="failed"
          value={p?.failed}
          testId="run-failed"
          tone={p && p.failed > 0 ? 'bad' : undefined}
        />
        <Count label="in flight" value={p?.inFlight} testId="run-inflight" />
        <Count label="queued" value={p?.queued} testId="run-queued" />
        <Count label="peak in flight" value={p?.maxInFlight} />
        {p?.batch ? (
          <BatchCounts p={p} batch={p.batch} />
        ) : (
          <Count label="output tokens" value={p?.outputTokens} />
        )}
        <Count label="elapsed" text={p ? `${(p.elapsedMs / 1000).toFixed(1)} s` : '—'} />
        {p && p.warmupTotal > 0 && <Count label="warm-up" text={`${p.warmupDone} / ${p.warmupTotal}`} />}
      </dl>
    </section>
  );
}

function Count({
  label,
  value,
  text,
  testId,
  tone,
}: {
  label: string;
  value?: number;
  text?: string;
  testId?: string;
  tone?: 'ok' | 'bad';
}) {
  return (
    <div className={`run-count ${tone ?? ''}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{text ?? (value === undefined ? '—' : fmtCompact(value))}</dd>
    </div>
  );
}

function SelfCheckLive({ live }: { live: LiveRun }) {
  const sc = live.progress?.selfCheck;
  const th = live.thresholds;
  if (!sc) return null;
  const eldBad = th ? sc.eventLoopDelayP99Ms > th.eventLoopDelayP99Ms : false;
  const cpuBad = th && sc.cpuPct !== null ? sc.cpuPct > th.cpuMeanPct : false;
  // Threaded (the default): the figures are the stream-I/O thread's, the loop that stamps reads.
  const io = sc.loop === 'io';
  const delayName = io ? 'I/O thread loop delay' : 'Event-loop delay';
  return (
    <>
      {(eldBad || cpuBad) && (
        <div className="banner warn" role="alert" data-testid="selfcheck-warning">
          <b>Client overloaded — timings may be late.</b>{' '}
          {eldBad &&
            `${delayName} p99 ${sc.eventLoopDelayP99Ms.toFixed(1)} ms > ${th!.eventLoopDelayP99Ms} ms. `}
          {cpuBad &&
            (io
              ? `I/O thread busy ${sc.cpuPct!.toFixed(0)} % > ${th!.cpuMeanPct} %. `
              : `Client CPU ${sc.cpuPct!.toFixed(0)} % > ${th!.cpuMeanPct} % of a core. `)}
          Lower the concurrency or rate, or close other work on this machine; the run will be flagged.
        </div>
      )}
      <p className="run-selfcheck muted" data-testid="selfcheck-live">
        Client self-check: {io ? 'I/O thread loop delay' : 'event-loop delay'} p99{' '}
        <b className={eldBad ? 'danger-text' : ''}>{sc.eventLoopDelayP99Ms.toFixed(2)} ms</b>
        {th && ` (limit ${th.eventLoopDelayP99Ms} ms)`} · {io ? 'busy' : 'CPU'}{' '}
        {sc.cpuPct === null ? (
          <span title="The mean needs a second of the run behind it">measuring…</span>
        ) : (
          <>
            <b className={cpuBad ? 'danger-text' : ''}>{sc.cpuPct.toFixed(0)} %</b>
            {th && (io ? ` (limit ${th.cpuMeanPct} %)` : ` of a core (limit ${th.cpuMeanPct} %)`)}
          </>
        )}
      </p>
    </>
  );
}

/**
 * Deferred: React renders the charts in an interruptible background pass. The body is memoised
 * on the deferred value, so the urgent pass (still holding the old value) renders nothing.
 */
const LiveCharts = memo(function LiveCharts() {
  const charts = useDeferredValue(useRunsStore((s) => s.live?.charts));
  const streams = useLiveStreams();
  return <LiveChartsBody charts={charts} streams={streams} />;
});

const LiveChartsBody = memo(function LiveChartsBody({
  charts,
  streams,
}: {
  charts: LiveChartsData | undefined;
  streams: boolean;
}) {
  if (!charts) return null;
  return (
    <OverTimeCharts
      throughput={charts.throughput}
      concurrency={charts.samples}
      xMax={charts.xMax}
      idPrefix="run"
      live
      tokens={streams}
    />
  );
});

const LiveStatsTable = memo(function LiveStatsTable() {
  const stats = useRunsStore((s) => s.live?.progress?.live ?? null);
  const streams = useLiveStreams();
  return (
    <section className="card" aria-label="Live percentiles">
      <header className="card-head">
        <h3 title="HdrHistogram (±1 %) over the successful requests so far; the published summary at the end is exact.">
          Live percentiles
        </h3>
        <span className="muted">
          successful requests so far · HdrHistogram ±1 % · exact numbers in the summary at the end
        </span>
      </header>
      <table className="run-table" data-testid="live-stats">
        <thead>
          <tr>
            <th>metric</th>
            <th>count</th>
            <th>mean</th>
            <th>p50</th>
            <th>p90</th>
            <th>p99</th>
            <th>max</th>
          </tr>
        </thead>
        <tbody>
          {liveMetrics(streams).map((m) => {
            const s = stats?.[m.id] ?? null;
            const est = estimatedLabel(m.id, stats);
            return (
              <tr key={m.id} data-metric={m.id}>
                <th title={est ? `${m.definition}\n\n${ESTIMATED_COUNTS_DEF}` : m.definition}>
                  <i className="sw mline" style={{ borderColor: m.color }} /> {m.name}
                  {est}
                </th>
                <td>{s ? fmtCompact(s.count) : '—'}</td>
                <td>{fmtLatency(s?.mean)}</td>
                <td>{fmtLatency(s?.p50)}</td>
                <td>{fmtLatency(s?.p90)}</td>
                <td>{fmtLatency(s?.p99)}</td>
                <td>{fmtLatency(s?.max)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {stats?.coalesced && stats.coalesced.gaps > 0 && (
        <p className="caption muted" data-testid="live-coalesced" title={COALESCED_DEF}>
          Coalesced gaps {coalescedShareText(stats.coalesced.gaps, stats.coalesced.totalGaps)} — left out of
          the ITL above
        </p>
      )}
    </section>
  );
});

/** " (estimated counts)" after ITL per token when some of it spread gaps over estimated counts, as the summary says. */
function estimatedLabel(metric: string, stats: LiveSnapshot | null): string {
  return metric === 'itl_per_token' && stats?.itlPerTokenEstimated ? ' (estimated counts)' : '';
}

const LiveDists = memo(function LiveDists() {
  const stats = useDeferredValue(useRunsStore((s) => s.live?.dist.stats ?? null));
  const streams = useLiveStreams();
  return <LiveDistsBody stats={stats} streams={streams} />;
});

const LiveDistsBody = memo(function LiveDistsBody({
  stats,
  streams,
}: {
  stats: LiveSnapshot | null;
  streams: boolean;
}) {
  return (
    <div className={streams ? 'run-grid3' : 'run-grid2'}>
      {liveMetrics(streams).map((m) => (
        <section key={m.id} className="card mchart" aria-label={`${m.name} distribution`}>
          <header className="card-head mchart-head">
            <h3
              title={
                estimatedLabel(m.id, stats) ? `${m.definition}\n\n${ESTIMATED_COUNTS_DEF}` : m.definition
              }
            >
              {m.name}
              {estimatedLabel(m.id, stats)} · CDF
            </h3>
            {stats?.[m.id] && <span className="muted">p99 {fmtLatency(stats[m.id]!.p99)}</span>}
          </header>
          <CdfChart points={cdfPoints(stats?.[m.id] ?? null)} color={m.color} testId={`live-cdf-${m.id}`} />
        </section>
      ))}
    </div>
  );
});
