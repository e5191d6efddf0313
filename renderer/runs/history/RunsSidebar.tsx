/** The sidebar of the Runs tab: the workload form and the runs history. */
import { ErrorBoundary } from '../../core/ErrorBoundary.tsx';
import { WorkloadForm } from '../form/WorkloadForm.tsx';
import { RunHistory } from './RunHistory.tsx';

export function RunsSidebar() {
  return (
    <>
      <ErrorBoundary name="New run">
        <WorkloadForm />
      </ErrorBoundary>
      <ErrorBoundary name="Runs">
        <RunHistory />
      </ErrorBoundary>
    </>
  );
}
