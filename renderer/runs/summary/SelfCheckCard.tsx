/**
 * The run summary's client self-check: how the client fared while it measured (the stream-I/O
 * thread's loop delay, stalls, GC and busy share; the main thread; CPU; a trace replay's lag; the
 * connections).
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import type { IoSelfCheck, StallTouches } from '../../../shared/runs/summary/self-check-schema.ts';
import type { ReplaySummary } from '../../../shared/runs/summary/schema.ts';
import { COALESCED_DEF, coalescedShareText } from '../../core/coalesced-text.ts';
import { f2 } from './summary-format.ts';

export function SelfCheckCard({ s }: { s: RunSummary }) {
  const sc = s.selfCheck;
  return (
    <section className="card" aria-label="Client self-check">
      <header className="card-head">
        <h3 title="How the client fared during the measured run: the stream-I/O thread that stamps every read (its loop delay, stalls, GC pauses, busy share), the main thread, and the connections">
          Client self-check
        </h3>
        {sc && (
          <span className={`badge ${sc.flagged ? 'warn' : 'ok'}`}>
            {sc.flagged ? 'flagged' : 'timing trustworthy'}
          </span>
        )}
      </header>
      {sc ? (
        <dl className="sum-rows compact" data-testid="sum-selfcheck">
          {sc.io && <IoThreadRows io={sc.io} />}
          <div className="sum-row">
            <dt>{sc.io ? 'Main thread loop delay p99 / max' : 'Event-loop delay p99 / max'}</dt>
            <dd>
              {f2(sc.eventLoopDelayP99Ms)} / {f2(sc.eventLoopDelayMaxMs)} <span className="unit">ms</span>
            </dd>
          </div>
          <div className="sum-row">
            <dt>CPU mean / worst 1 s</dt>
            <dd>
              {f2(sc.cpuMeanPct)} / {f2(sc.cpuMaxPct)} <span className="unit">% of a core</span>
            </dd>
          </div>
          <div className="sum-row">
            <dt>Schedule lag p99</dt>
            <dd>
              {f2(sc.scheduleLagP99Ms)} <span className="unit">ms</span>
            </dd>
          </div>
          {sc.stallTouches && <StallRow st={sc.stallTouches} />}
          {s.replay && <ReplayRows r={s.replay} />}
          {s.coalesced && (
            <div className="sum-row" title={COALESCED_DEF}>
              <dt>Coalesced ITL gaps</dt>
              <dd>{coalescedShareText(s.coalesced.gaps, s.coalesced.totalGaps)}</dd>
            </div>
          )}
          {sc.connections && (
            <div
              className="sum-row"
              data-testid="sum-connections"
              title="Retried: a reused keep-alive connection the server had already closed failed before any response byte, and the request was sent again on a new one (not a failure)"
            >
              <dt>Connections ({sc.connections.mode})</dt>
              <dd>
                {sc.connections.opened} opened · {sc.connections.reused} reused · {sc.connections.retried}{' '}
                retried
              </dd>
            </div>
          )}
          {sc.flagged && <p className="field-error">{sc.reasons.join('; ')}</p>}
        </dl>
      ) : (
        <p className="muted sum-none">{s.imported ? 'not in the imported data' : 'not recorded'}</p>
      )}
    </section>
  );
}

/** A trace replay: how late requests left against the trace (replay-lag.ts), and its verdict. */
function ReplayRows({ r }: { r: ReplaySummary }) {
  return (
    <>
      <div
        className="sum-row"
        data-testid="sum-replay"
        title="Actual send − the trace's planned send (divided by the speedup), per request; queue time for a concurrency slot counts in it"
      >
        <dt>Trace replay ×{r.speedup}: lag p50 / p99 / max</dt>
        <dd>
          {f2(r.lagP50Ms)} / {f2(r.lagP99Ms)} / {f2(r.lagMaxMs)} <span className="unit">ms</span>
        </dd>
      </div>
      {r.flagged && (
        <p className="field-error">
          Replay fell behind its trace: lag p99 {f2(r.lagP99Ms)} ms &gt; {r.boundMs} ms
        </p>
      )}
    </>
  );
}

/** The stream-I/O thread that stamps every read: its loop delay, stalls and GC, busy share. */
function IoThreadRows({ io }: { io: IoSelfCheck }) {
  return (
    <>
      <div
        className="sum-row"
        title="How late the thread that stamps every socket read ran its timers: a bound on how late a stamp can be"
      >
        <dt>I/O thread loop delay p99 / max</dt>
        <dd>
          {f2(io.loopDelayP99Ms)} / {f2(io.loopDelayMaxMs)} <span className="unit">ms</span>
        </dd>
      </div>
      <div className="sum-row">
        <dt>I/O stalls &gt; 5 ms · GC pauses</dt>
        <dd>
          {io.stalls} ({f2(io.stallMs)} <span className="unit">ms</span>) · {io.gcCount}, max {f2(io.gcMaxMs)}{' '}
          <span className="unit">ms</span>
        </dd>
      </div>
      <div className="sum-row">
        <dt>I/O thread busy</dt>
        <dd>
          {io.cpuPct === null ? '—' : f2(io.cpuPct)} <span className="unit">%</span>
        </dd>
      </div>
      <div
        className="sum-row"
        data-testid="sum-holds"
        title="Times a stream was not read because the measuring thread had fallen behind with what was read before (its share of the backlog full): the reads after a hold are stamped up to that late. A hold over 5 ms flags the run."
      >
        <dt>Streams held back</dt>
        <dd>
          {io.holds === 0 ? (
            'never'
          ) : (
            <>
              {io.holds} ({f2(io.heldMs)} <span className="unit">ms</span>), max {f2(io.heldMaxMs)}{' '}
              <span className="unit">ms</span>
            </>
          )}
        </dd>
      </div>
    </>
  );
}

/** The events stamped in or just after a stall of the loop that stamps reads, and their requests. */
function StallRow({ st }: { st: StallTouches }) {
  const more = st.requests > st.ids.length ? ', …' : '';
  return (
    <div
      className="sum-row"
      data-testid="sum-stall-touches"
      title={`Content events stamped from the start of a stall of the loop that stamps reads (longer than ${st.boundMs} ms) to ${st.boundMs} ms after it: they may be late by up to the stall. Any flags the run.${st.ids.length > 0 ? ` Requests: ${st.ids.join(', ')}${more}` : ''}`}
    >
      <dt>Events stamped in a stall &gt; {st.boundMs} ms</dt>
      <dd className="wrap">
        {st.events === 0 ? (
          <>
            none <span className="unit">({st.stalls} stalls)</span>
          </>
        ) : (
          <>
            {st.events} in {st.requests} request{st.requests === 1 ? '' : 's'} ({st.ttft} TTFT, {st.gaps} ITL
            gaps)
            <br />
            <span className="unit" data-testid="sum-stall-ids">
              {st.ids.join(', ')}
              {more}
            </span>
          </>
        )}
      </dd>
    </div>
  );
}
