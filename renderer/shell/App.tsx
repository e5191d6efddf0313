/**
 * The window: header, connection banner, composer + history on the left; on the right the
 * request (stream debugger) or the server metrics of the selected target, by tab. The Runs tab
 * puts the workload form and the runs history on the left, the run dashboard on the right.
 */
import { useEffect } from 'react';
import { useTabStore } from '../core/tab-store.ts';
import { startController } from './start.ts';
import { useAppStore } from '../core/app-store.ts';
import { Composer } from '../request/Composer.tsx';
import { ConnectionBanner } from './ConnectionBanner.tsx';
import { ErrorBoundary } from '../core/ErrorBoundary.tsx';
import { History } from '../request/History.tsx';
import { NoticeBar } from './NoticeBar.tsx';
import { RequestView } from '../request/RequestView.tsx';
import { TargetEditor } from '../targets/TargetEditor.tsx';
import { switchTarget } from '../request/composer-store.ts';
import { MainTabs } from './MainTabs.tsx';
import { MetricsPanel } from '../metrics/MetricsPanel.tsx';
import { RunsTabSidebar } from '../sweeps/RunsTabSidebar.tsx';
import { RunsTabMain } from '../sweeps/RunsTabMain.tsx';

export function App() {
  useEffect(() => startController(), []);
  const info = useAppStore((s) => s.info);
  const status = useAppStore((s) => s.connection.status);
  const tab = useTabStore((s) => s.tab);
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
            <RunsTabSidebar />
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
            <RunsTabMain />
          ) : (
            <ErrorBoundary name="Request">
              <RequestView />
            </ErrorBoundary>
          )}
        </main>
      </div>
      <TargetEditor onSwitch={switchTarget} />
    </div>
  );
}
