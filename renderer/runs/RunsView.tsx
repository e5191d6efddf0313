/**
 * The Runs tab's main area: the live dashboard while a run goes (or when picked), a reopened run's
 * summary, or how to start. The form and the history sit in the sidebar (RunsSidebar).
 */
import { setRunsMessage, useRunsStore } from './run-store.ts';
import { ErrorBoundary } from '../core/ErrorBoundary.tsx';
import { LiveDashboard } from './live/LiveDashboard.tsx';
import { RunCompareView } from './compare/RunCompareView.tsx';
import { RunSummaryView } from './summary/RunSummaryView.tsx';

const PANEL_NAME: Record<string, string> = { live: 'Live run', run: 'Run summary', compare: 'Comparison' };

export function RunsView() {
  const view = useRunsStore((s) => s.view);
  const live = useRunsStore((s) => s.live);
  const message = useRunsStore((s) => s.message);
  return (
    <div className="runs-view" data-testid="runs-view">
      {message && (
        <div
          className={`banner ${message.tone === 'error' ? 'bad' : message.tone === 'warn' ? 'warn' : 'info'}`}
          role={message.tone === 'info' ? 'status' : 'alert'}
          data-testid="runs-message"
          data-tone={message.tone}
        >
          <span className="runs-message-text">{message.text}</span>
          {message.action && (
            <button
              type="button"
              className="btn tiny"
              data-testid={message.action.testId}
              onClick={() => message.action!.run()}
            >
              {message.action.label}
            </button>
          )}
          <span className="spacer" />
          <button
            type="button"
            className="btn tiny ghost"
            onClick={() => setRunsMessage(null)}
            aria-label="Dismiss"
          >
            ✕
          </button>
        </div>
      )}
      {live && !live.finished && view.kind !== 'live' && (
        <div className="banner info">
          A run is going on.{' '}
          <button
            type="button"
            className="btn tiny"
            onClick={() => useRunsStore.setState({ view: { kind: 'live' } })}
          >
            Show it
          </button>
        </div>
      )}
      <ErrorBoundary name={PANEL_NAME[view.kind] ?? 'Runs'} resetKey={JSON.stringify(view)}>
        {view.kind === 'live' && live ? (
          <LiveDashboard />
        ) : view.kind === 'run' ? (
          <RunSummaryView />
        ) : view.kind === 'compare' ? (
          <RunCompareView />
        ) : (
          <RunsIntro />
        )}
      </ErrorBoundary>
    </div>
  );
}

function RunsIntro() {
  return (
    <section className="card runs-intro">
      <h2>Load runs</h2>
      <p>
        A run sends a workload — N requests or a duration, at a rate, up to a concurrency — and times every
        streamed token, like <code>vllm bench serve</code> done live. Set it up on the left (the defaults run
        against the built-in simulator), press <b>Start run</b>, and watch throughput, concurrency, the
        requests' swimlane and latency distributions as they happen. At the end you get everything vLLM
        reports, computed the same way, plus per-token ITL, goodput and a self-check of the client.
      </p>
      <p className="muted">
        Every run is a file in the runs folder (JSONL, readable and diffable); reopen, rename, export (vLLM
        JSON, CSV) or delete it from the list. Import vLLM or SGLang results to see them with the same charts.
        The same workload JSON runs headless: <code>tokenscope run workload.json</code>.
      </p>
    </section>
  );
}
