/** The Runs tab's main area by mode: the run views (renderer/runs/) or the Sweep view. */
import { ErrorBoundary } from '../core/ErrorBoundary.tsx';
import { RunsView } from '../runs/RunsView.tsx';
import { useSweepStore } from './sweep-store.ts';
import { SweepView } from './SweepView.tsx';

export function RunsTabMain() {
  const mode = useSweepStore((s) => s.mode);
  return mode === 'run' ? (
    <RunsView />
  ) : (
    <ErrorBoundary name="Sweep">
      <SweepView />
    </ErrorBoundary>
  );
}
