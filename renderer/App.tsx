/**
 * The window: header, connection banner, composer + history on the left; on the right the
 * request (stream debugger) or the server metrics of the selected target, by tab. The Runs tab
 * puts the workload form and the runs history on the left, the run dashboard on the right.
 */
import { useEffect } from 'react';
import { usePanelStore } from './metrics/panel-store.ts';
import { startController } from './stores/controller.ts';
import { useAppStore } from './stores/app-store.ts';
import { Composer } from './views/Composer.tsx';
import { ConnectionBanner } from './views/ConnectionBanner.tsx';
import { ErrorBoundary } from './views/ErrorBoundary.tsx';
import { History } from './views/History.tsx';
import { NoticeBar } from './views/NoticeBar.tsx';
import { RequestView } from './views/RequestView.tsx';
import { TargetEditor } from './views/TargetEditor.tsx';
import { MainTabs } from './views/metrics/MainTabs.tsx';
import { MetricsPanel } from './views/metrics/MetricsPanel.tsx';
import { RunsSidebar } from './views/runs/RunsSidebar.tsx';
import { RunsView } from './views/runs/RunsView.tsx';

export function App() {
  useEffect(() => startController(), []);
  const info = useAppStore((s) => s.info);
  const status = useAppStore((s) => s.connection.status);
  const tab = usePanelStore((s) => s.tab);
  return (
    <div className="app">
      <header className="topbar">
        <span className="logo" aria-hidden>
          ▮▮▯
        </span>
        <h1>Tokenscope</h1>
        <span className="muted">stream timing for LLM servers</span>
        <span className="spacer" />
        {info && (
          <span className="muted" title={info.simUrl ? `Built-in simulator at ${info.simUrl}` : undefined}>
            v{info.version} · {info.mode === 'web' ? 'web mode' : 'desktop'}
          </span>
        )}
        <span className={`conn conn-${status}`} title={`Link to the core: ${status}`} />
      </header>
      <ConnectionBanner />
      <NoticeBar />
      <div className="body">
        <aside className="sidebar">
          {tab === 'runs' ? (
            <RunsSidebar />
          ) : (
            <>
              <ErrorBoundary name="Composer">
                <Composer />
              </ErrorBoundary>
              <ErrorBoundary name="History">
                <History />
              </ErrorBoundary>
            </>
          )}
        </aside>
        <main className="main">
          <MainTabs />
          {tab === 'metrics' ? (
            <ErrorBoundary name="Server metrics">
              <MetricsPanel />
            </ErrorBoundary>
          ) : tab === 'runs' ? (
            <RunsView />
          ) : (
            <ErrorBoundary name="Request">
              <RequestView />
            </ErrorBoundary>
          )}
        </main>
      </div>
      <TargetEditor />
    </div>
  );
}
