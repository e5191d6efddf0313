/**
 * What the Sweep mode does: start a sweep from the workload form's target and workload with the
 * plan form's loads, cancel it, list the runs folder's sweep files, open one (or one from disk) to
 * view or overlay on the others.
 */
import { parseSweepFile, type SweepFile } from '../../shared/runs/sweep/file.ts';
import type { SweepPlanInput } from '../../shared/sweeps-api.ts';
import { api } from '../core/api.ts';
import { formTarget } from '../runs/run-actions.ts';
import { useRunsStore } from '../runs/run-store.ts';
import { draftToWorkload, validateDraft } from '../runs/form/workload-draft.ts';
import { MAX_OVERLAY, useSweepStore, type OpenedSweep, type PlanForm } from './sweep-store.ts';
import { errorMessage } from '../../shared/result.ts';

/** The plan form as the CLI's flags (the core reads them with the CLI's planOf). */
function planInput(p: PlanForm): SweepPlanInput {
  if (p.kind === 'auto') return { rate: 'auto', steps: p.steps };
  if (p.kind === 'rate') return { rate: p.rates };
  if (p.kind === 'concurrency') return { concurrency: p.concurrencies };
  return { slo: p.slo, search: p.search };
}

export async function refreshSweeps(): Promise<void> {
  const r = await api.listSweeps();
  if (r.ok) useSweepStore.setState({ list: r.value.sweeps, listError: null });
  else useSweepStore.setState({ listError: r.error.message });
}

export async function startSweep(): Promise<boolean> {
  const { plan, starting, live } = useSweepStore.getState();
  if (starting || (live && !live.finished)) return false;
  const runs = useRunsStore.getState();
  if ((runs.live && !runs.live.finished) || runs.sequence) {
    useSweepStore.setState({ issues: ['A run is going on: cancel it or wait for it to finish.'] });
    return false;
  }
  const target = formTarget();
  if (!target) {
    useSweepStore.setState({ issues: ['No target: add a server first.'] });
    return false;
  }
  const draftIssues = validateDraft(runs.draft);
  if (draftIssues.length) {
    useSweepStore.setState({ issues: draftIssues.map((i) => `${i.path ? `${i.path}: ` : ''}${i.message}`) });
    return false;
  }
  useSweepStore.setState({ starting: true, issues: [] });
  const draft = runs.draft;
  const r = await api.startSweep({
    targetId: target.id,
    model: draft.model.trim() || undefined,
    name: draft.name.trim() || undefined,
    workload: draftToWorkload(draft),
    serverMetrics: draft.serverMetrics,
    plan: planInput(plan),
  });
  if (!r.ok) {
    useSweepStore.setState({ starting: false, issues: [r.error.message] });
    return false;
  }
  const cur = useSweepStore.getState().live;
  useSweepStore.setState({
    starting: false,
    // The started event may already be here (it is sent before startSweep answers).
    live:
      cur?.sweepId === r.value.sweepId
        ? cur
        : {
            sweepId: r.value.sweepId,
            key: r.value.key,
            name: draft.name.trim() || null,
            url: target.baseUrl,
            model: draft.model,
            file: null,
            current: null,
            notes: [],
            finished: false,
            cancelled: false,
            error: null,
          },
  });
  return true;
}

export async function cancelSweep(): Promise<void> {
  const live = useSweepStore.getState().live;
  if (live && !live.finished) await api.cancelSweep(live.sweepId);
}

function labelOf(file: SweepFile, fallback: string): string {
  return file.name ?? `${new URL(file.target.url).host} · ${fallback.replace(/\.json$/, '')}`;
}

function addOpened(o: OpenedSweep): void {
  const rest = useSweepStore.getState().opened.filter((x) => x.id !== o.id);
  useSweepStore.setState({ opened: [...rest, o].slice(-MAX_OVERLAY), issues: [] });
}

/** Opens a sweep file of the runs folder and draws it with the ones already open. */
export async function openSweep(key: string): Promise<void> {
  const r = await api.openSweep(key);
  if (!r.ok) {
    useSweepStore.setState({ issues: [r.error.message] });
    return;
  }
  addOpened({ id: key, label: labelOf(r.value, key), file: r.value });
}

/** A sweep file picked from disk (checked with the same schema as the core's). */
export function openSweepText(name: string, text: string): void {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    useSweepStore.setState({ issues: [`${name}: not JSON (${errorMessage(e)})`] });
    return;
  }
  const r = parseSweepFile(json);
  if (!r.ok) {
    useSweepStore.setState({ issues: [`${name}: ${r.error}`] });
    return;
  }
  addOpened({ id: `file:${name}:${r.value.sweepId}`, label: labelOf(r.value, name), file: r.value });
}

export function closeSweep(id: string): void {
  useSweepStore.setState((s) => ({ opened: s.opened.filter((o) => o.id !== id) }));
}
