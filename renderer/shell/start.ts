/**
 * The app's start: subscribe every feature to the core's events (requests, targets, server
 * metrics, runs), follow the link, say ready, load the lists. After a reconnect the lists are
 * loaded again (events sent while the link was down are gone).
 */
import { api, getTransport, markReady, onEvent } from '../core/api.ts';
import { setNotice, setTargets, useAppStore } from '../core/app-store.ts';
import { subscribeMetricsEvents } from '../metrics/metrics-events.ts';
import {
  refreshRequestHistory,
  reloadCurrentIfRunning,
  subscribeRequestEvents,
} from '../request/controller.ts';
import { openRun, refreshRuns, sequenceRunFinished } from '../runs/run-actions.ts';
import { subscribeRunEvents } from '../runs/run-events.ts';
import { refreshSweeps } from '../sweeps/sweep-actions.ts';
import { subscribeSweepEvents } from '../sweeps/sweep-events.ts';

async function refreshLists(): Promise<void> {
  const [info, targets] = await Promise.all([api.getAppInfo(), api.listTargets()]);
  if (info.ok) useAppStore.setState({ info: info.value });
  if (targets.ok) setTargets(targets.value);
  else setNotice({ tone: 'error', text: `Could not list targets: ${targets.error.message}` });
  await Promise.all([refreshRequestHistory(), refreshRuns(), refreshSweeps()]);
}

/** Subscribe to the core, say ready, load the lists. Returns the teardown. */
export function startController(): () => void {
  const offs = [
    ...subscribeRequestEvents(),
    onEvent('onTargetsChanged', (targets) => setTargets(targets)),
    ...subscribeMetricsEvents(),
    ...subscribeRunEvents(
      (key) => void openRun(key, true),
      (f) => void sequenceRunFinished(f),
    ),
    ...subscribeSweepEvents(() => void refreshSweeps()),
  ];
  const t = getTransport();
  let reconnects = t.connection().reconnects;
  offs.push(
    t.onConnection((c) => {
      useAppStore.setState({ connection: c });
      if (c.status === 'open' && c.reconnects !== reconnects) {
        reconnects = c.reconnects;
        void refreshLists();
        reloadCurrentIfRunning();
      }
    }),
  );
  useAppStore.setState({ connection: t.connection() });
  markReady();
  void refreshLists();
  return () => {
    for (const off of offs) off();
  };
}
