/**
 * One line on the scraper of the watched target: profile detected, the /metrics URL, how old
 * the last scrape is; when it fails, the error's kind and message, failures in a row and the
 * backoff countdown (shown, never hidden), and what to do when the server has no /metrics.
 */
import type { TargetView } from '../../shared/api.ts';
import type { MetricsState } from '../../shared/metrics-api.ts';
import type { ScrapeMeta } from './metrics-store.ts';
import { fmtAge } from './time-axis.ts';
import { useMetricsStore } from './summary-store.ts';
import { useAppStore } from '../core/app-store.ts';
import { useNow } from './use-now.ts';

/** Servers known to have no Prometheus endpoint of their own. */
function noMetricsHint(target: TargetView, status: number | undefined): string | null {
  const ollama = target.dialect.startsWith('ollama');
  if (!ollama && status !== 404) return null;
  return ollama
    ? 'Ollama (and LM Studio) expose no Prometheus /metrics, so there are no server-side numbers to show; the client-side timings still work. If this server has metrics elsewhere, set its metrics URL.'
    : 'The server answered 404 for /metrics: it may not expose Prometheus metrics (Ollama, LM Studio), or they live elsewhere (Triton: port 8002; vLLM behind a proxy: another path). Set the metrics URL in the target.';
}

/** A clock offset worth telling (smaller ones are within a round trip, or a chart pixel). */
const SKEW_NOTE_MS = 250;

/** The last good scrape's size and cost, and the lines it could not parse. */
function ScrapeMetaNote({ meta, viaProm }: { meta: ScrapeMeta | null; viaProm: boolean }) {
  const errors = meta?.parseErrors ?? [];
  return (
    <>
      {meta && (
        <span
          className="muted"
          title="Metric families and series in the last good scrape, and how long fetching and parsing it took"
        >
          {meta.families} families · {meta.series} series · {viaProm ? 'query' : 'scrape'}{' '}
          {meta.durationMs.toFixed(0)} ms
        </span>
      )}
      {errors.length > 0 && (
        <span
          className="badge warn"
          title={errors
            .slice(0, 5)
            .map((e) => `line ${e.line}: ${e.message}`)
            .join('\n')}
        >
          {errors.length} line{errors.length === 1 ? '' : 's'} not parsed
        </span>
      )}
    </>
  );
}

/** How old the newest scrape is, marked stale when it is overdue. */
function ScrapeAge({
  age,
  viaProm,
  staleAfterMs,
}: {
  age: number | null;
  viaProm: boolean;
  staleAfterMs: number;
}) {
  return (
    <span
      // Scrapes come every interval (1 s by default): three missed means something is stuck. Through
      // Prometheus they come at its scrape interval (often 15–30 s).
      className={age !== null && age > staleAfterMs ? 'stale' : 'muted'}
      title={
        viaProm
          ? 'Time since the newest sample Prometheus holds for these servers (its scrape interval sets the pace)'
          : 'Time since the last successful scrape arrived'
      }
      data-testid="metrics-age"
    >
      {age === null
        ? 'no scrape yet'
        : `${viaProm ? 'Prometheus scraped' : 'last scrape'} ${fmtAge(age)} ago`}
    </span>
  );
}

/** Why scraping fails: the watch refused, or the last error with failures in a row and the retry countdown. */
function ScrapeFailure({
  watchError,
  state,
  retryIn,
}: {
  watchError: string | null;
  state: MetricsState | null;
  retryIn: number | null;
}) {
  const err = state?.lastError ?? null;
  return (
    <div className="mstatus-error" role="alert">
      {watchError ? (
        <>
          <span className="badge kind-client">watch</span>
          <span>{watchError}</span>
        </>
      ) : (
        <>
          <span className={`badge kind-${err?.kind ?? 'client'}`} title={err?.code}>
            {err?.kind ?? 'error'}
            {err?.status ? ` ${err.status}` : ''}
          </span>
          <span className="mstatus-message">{err?.message ?? 'Scrape failed'}</span>
          <span className="spacer" />
          <span className="muted">
            {state?.consecutiveFailures ?? 0} failure{state?.consecutiveFailures === 1 ? '' : 's'} in a row
          </span>
          <span data-testid="metrics-retry">
            {retryIn === null ? 'stopped' : retryIn > 0 ? `retry in ${fmtAge(retryIn)}` : 'retrying…'}
          </span>
        </>
      )}
    </div>
  );
}

export function MetricsStatus({ target }: { target: TargetView }) {
  const sum = useMetricsStore((s) => s.targets[target.id]);
  const now = useNow(500);
  const state = sum?.state ?? null;
  const failing = !!sum?.watchError || state?.status === 'failing';
  const status: 'ok' | 'failing' | 'idle' = failing ? 'failing' : state?.status === 'ok' ? 'ok' : 'idle';
  const profile = sum?.meta?.profile ?? state?.profile ?? '';
  const viaProm = state ? state.source === 'prometheus' : Boolean(target.prometheusUrl);
  const url = state?.url || (viaProm ? target.prometheusUrl : target.metricsUrl) || '';
  const selector = state?.selector ?? target.prometheusSelector ?? '';
  const retryIn =
    state?.nextAttemptInMs !== null && state?.nextAttemptInMs !== undefined
      ? state.nextAttemptInMs - (now - sum!.stateAt)
      : null;
  const age = sum?.lastScrapeAt ? now - sum.lastScrapeAt : null;
  // Three missed reads; through Prometheus, its own scrape interval (unknown here) sets the pace.
  const staleAfterMs = Math.max(viaProm ? 90_000 : 5000, 3 * (target.metricsIntervalMs ?? 1000));
  const hint = failing ? noMetricsHint(target, state?.lastError?.status) : null;
  const meta = sum?.meta ?? null;
  return (
    <div
      className={`mstatus mstatus-${status}`}
      data-testid="metrics-status"
      data-status={status}
      data-profile={profile}
    >
      <div className="mstatus-line">
        <span className={`badge ${status === 'ok' ? 'ok' : status === 'failing' ? 'bad' : ''}`}>
          {status === 'ok'
            ? viaProm
              ? 'via Prometheus'
              : 'scraping'
            : status === 'failing'
              ? 'failing'
              : 'starting'}
        </span>
        {meta ? (
          <b title="Server profile detected from the metric names">{meta.profileName}</b>
        ) : (
          <span className="muted">profile: not detected yet</span>
        )}
        {url && (
          <span
            className="mono muted mstatus-url"
            title={viaProm ? `Prometheus ${url}, series ${selector}` : url}
            data-testid="metrics-source"
          >
            {viaProm ? `${selector} @ ${url}` : url}
          </span>
        )}
        <span className="spacer" />
        <ScrapeMetaNote meta={meta} viaProm={viaProm} />
        <ScrapeAge age={age} viaProm={viaProm} staleAfterMs={staleAfterMs} />
      </div>
      {viaProm && state?.clockSkewMs != null && Math.abs(state.clockSkewMs) >= SKEW_NOTE_MS && (
        <p className="mstatus-note" data-testid="metrics-clock-skew">
          Prometheus&apos; clock is {fmtAge(Math.abs(state.clockSkewMs))}{' '}
          {state.clockSkewMs > 0 ? 'ahead of' : 'behind'} this machine&apos;s: its samples are moved onto this
          machine&apos;s clock, so they line up with this client&apos;s requests.
        </p>
      )}
      {meta?.profile === 'unknown' && !failing && (
        <p className="mstatus-note">
          Unknown server: no concepts are mapped for it, so the charts stay empty; every raw series is in the
          explorer below.
        </p>
      )}
      {failing && <ScrapeFailure watchError={sum?.watchError ?? null} state={state} retryIn={retryIn} />}
      {hint && (
        <p className="mstatus-note">
          {hint}{' '}
          <button
            type="button"
            className="btn tiny"
            onClick={() => useAppStore.setState({ editing: target.id })}
            disabled={target.builtin}
          >
            Edit target
          </button>
        </p>
      )}
    </div>
  );
}
