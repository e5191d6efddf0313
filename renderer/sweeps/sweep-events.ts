/**
 * The core's sweep events (onSweepProgress) into the sweep store: a step started, its progress, a
 * step finished (the file as it now stands: the curves redraw), over-saturation and SLO verdicts
 * (noted), the end. Called from the controller (shell/start.ts).
 */
import type { SweepEvent } from '../../shared/sweeps-api.ts';
import { loadText } from '../../shared/runs/sweep/text.ts';
import { onEvent } from '../core/api.ts';
import { useSweepStore, type LiveSweep } from './sweep-store.ts';

function patch(sweepId: string, f: (l: LiveSweep) => Partial<LiveSweep>): void {
  const live = useSweepStore.getState().live;
  if (!live || live.sweepId !== sweepId) return;
  useSweepStore.setState({ live: { ...live, ...f(live) } });
}

/** @internal exported for its tests */
export function handleSweepEvent(e: SweepEvent): void {
  switch (e.kind) {
    case 'started': {
      const cur = useSweepStore.getState().live;
      if (cur?.sweepId === e.sweepId)
        return patch(e.sweepId, () => ({ name: e.name, url: e.url, model: e.model }));
      useSweepStore.setState({
        live: {
          sweepId: e.sweepId,
          key: e.key,
          name: e.name,
          url: e.url,
          model: e.model,
          file: null,
          current: null,
          notes: [],
          finished: false,
          cancelled: false,
          error: null,
        },
      });
      return;
    }
    case 'step-started':
      return patch(e.sweepId, () => ({
        current: { index: e.index, load: e.load, role: e.role, fraction: 0 },
      }));
    case 'step-progress':
      return patch(e.sweepId, (l) => (l.current ? { current: { ...l.current, fraction: e.fraction } } : {}));
    case 'step-finished':
      return patch(e.sweepId, () => ({ file: e.file, current: null }));
    case 'over-saturated':
      return patch(e.sweepId, (l) => ({ notes: [...l.notes, overNote(e)] }));
    case 'slo-verdict':
      return patch(e.sweepId, (l) => ({
        notes: [...l.notes, `Step ${e.index + 1} (${loadText(e.load)}): SLO ${e.verdict}.`],
      }));
    case 'done':
      return patch(e.sweepId, (l) => ({
        file: e.file ?? l.file,
        current: null,
        finished: true,
        cancelled: e.cancelled,
        error: e.error,
      }));
  }
}

function overNote(e: Extract<SweepEvent, { kind: 'over-saturated' }>): string {
  const at = `Step ${e.index + 1} (${loadText(e.load)})`;
  const why = e.reason ? ` (${e.reason})` : '';
  if (e.then === 'rerun')
    return `${at} was over-saturated${why}: stopped early, running it again to confirm.`;
  if (e.then === 'confirmed') return `${at} was over-saturated again${why}: confirmed, no higher load run.`;
  return `${at} was over-saturated${why}: stopped early, the load fails.`;
}

export function subscribeSweepEvents(refresh: () => void): (() => void)[] {
  return [
    onEvent('onSweepProgress', (e) => {
      handleSweepEvent(e);
      if (e.kind === 'done') refresh();
    }),
  ];
}
