/** The sidebar of the Runs tab: the workload form and the runs history. */
import { WorkloadForm } from './WorkloadForm.tsx';
import { RunHistory } from './RunHistory.tsx';

export function RunsSidebar() {
  return (
    <>
      <WorkloadForm />
      <RunHistory />
    </>
  );
}
