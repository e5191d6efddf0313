/** Switches the main area between the request (stream debugger), the server metrics and load runs. */
import { setTab, useTabStore } from '../core/tab-store.ts';
import { useMetricsStore } from '../metrics/summary-store.ts';
import { useRunsStore } from '../runs/run-store.ts';
import { useSelectedTarget } from '../core/app-store.ts';

export function MainTabs() {
  const tab = useTabStore((s) => s.tab);
  const target = useSelectedTarget();
  const status = useMetricsStore((s) => (target ? s.targets[target.id]?.state?.status : undefined));
  const watchError = useMetricsStore((s) => (target ? s.targets[target.id]?.watchError : null));
  const failing = tab === 'metrics' && (status === 'failing' || !!watchError);
  const runGoing = useRunsStore((s) => !!s.live && !s.live.finished);
  return (
    <nav className="main-tabs" role="tablist" aria-label="View">
      <button
        type="button"
        role="tab"
        aria-selected={tab === 'request'}
        className={tab === 'request' ? 'on' : ''}
        data-testid="request-tab"
        onClick={() => setTab('request')}
      >
        Request
      </button>
      <button
        type="button"
        role="tab"
        aria-selected={tab === 'metrics'}
        className={tab === 'metrics' ? 'on' : ''}
        data-testid="metrics-tab"
        onClick={() => setTab('metrics')}
        title={
          target
            ? `Prometheus /metrics of ${target.name}, scraped every second while this tab is open`
            : undefined
        }
      >
        Server metrics
        {tab === 'metrics' && status && (
          <i className={`tab-dot ${failing ? 'bad' : status === 'ok' ? 'ok' : ''}`} />
        )}
      </button>
      <button
        type="button"
        role="tab"
        aria-selected={tab === 'runs'}
        className={tab === 'runs' ? 'on' : ''}
        data-testid="runs-tab"
        onClick={() => setTab('runs')}
        title="Load runs: a workload against a server, live dashboard, vLLM-style summary, history"
      >
        Runs
        {runGoing && <i className="tab-dot ok" title="A run is going on" />}
      </button>
    </nav>
  );
}
