/**
 * What the user does with runs: start, cancel, open, rename, delete, export, import, reveal.
 * Results go to the run store; nothing throws (the API returns Result values).
 */
import type { RunFinished } from '../../shared/runs-api.ts';
import type { Result } from '../../shared/api.ts';
import { api, getWebApi } from '../core/api.ts';
import type { ImportOutcome } from '../core/transport/web-api.ts';
import { download } from './run-exports.ts';
import { useAppStore, pickTarget } from '../core/app-store.ts';
import { ensureLive, handleList } from './run-events.ts';
import { MAX_COMPARED } from './compare/run-compare.ts';
import { MAX_REPEATS } from '../../shared/runs-api.ts';

import { setRunsMessage, useRunsStore } from './run-store.ts';
import {
  draftToWorkload,
  issuesOfMessage,
  otlpListenOf,
  validateDraft,
  workloadToDraft,
} from './form/workload-draft.ts';
import { parseWorkloadText } from '../../shared/runs/workload/text.ts';
import { addFileTarget, targetOutcome } from './form/workload-target.ts';
import { errorMessage } from '../../shared/result.ts';

export async function refreshRuns(): Promise<void> {
  const r = await api.listRuns();
  if (r.ok) handleList(r.value);
  else useRunsStore.setState({ listError: r.error.message, listLoaded: true });
}

/** The form's target: its own choice, else the app's selected target (the simulator by default). */
export function formTarget() {
  const { targets, selectedTargetId } = useAppStore.getState();
  const own = useRunsStore.getState().targetId;
  return targets.find((t) => t.id === own) ?? pickTarget(targets, selectedTargetId);
}

/** The targets ticked under "also run on", after the form's own (unknown and duplicate ones dropped). */
export function alsoTargets(first: { id: string } | null | undefined) {
  const { targets } = useAppStore.getState();
  const ids = useRunsStore.getState().alsoTargetIds;
  return targets.filter((t) => t.id !== first?.id && ids.includes(t.id)).slice(0, MAX_COMPARED - 1);
}

export async function startRun(): Promise<boolean> {
  const { draft, starting, live, sequence } = useRunsStore.getState();
  if (starting) return false;
  if ((live && !live.finished) || sequence) {
    useRunsStore.setState({
      startIssues: [{ path: '', message: 'A run is going on: cancel it or wait for it to finish.' }],
    });
    return false;
  }
  const target = formTarget();
  if (!target) {
    useRunsStore.setState({ startIssues: [{ path: '', message: 'No target: add a server first.' }] });
    return false;
  }
  const issues = validateDraft(draft);
  if (issues.length) {
    useRunsStore.setState({ startIssues: issues });
    return false;
  }
  const also = alsoTargets(target);
  const repeats = Math.max(1, Math.min(MAX_REPEATS, Math.floor(useRunsStore.getState().repeats || 1)));
  if (also.length > 0 || repeats > 1) {
    const steps = [target, ...also].flatMap((t) => {
      if (repeats === 1) return [{ id: t.id, name: t.name }];
      const group = `${t.id}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      return Array.from({ length: repeats }, (_, k) => ({
        id: t.id,
        name: `${t.name} · repeat ${k + 1}/${repeats}`,
        repeat: { group, index: k + 1, of: repeats },
      }));
    });
    useRunsStore.setState({
      sequence: {
        targets: steps,
        index: 0,
        runIds: [],
        keys: [],
        workload: draftToWorkload(draft),
        name: draft.name.trim(),
        model: draft.model.trim(),
        serverMetrics: draft.serverMetrics,
        otlpListen: otlpListenOf(draft),
      },
    });
    return startSequenceRun(0);
  }
  useRunsStore.setState({ starting: true, startIssues: [], message: null });
  const r = await api.startRun({
    targetId: target.id,
    model: draft.model.trim() || undefined,
    name: draft.name.trim() || undefined,
    workload: draftToWorkload(draft),
    serverMetrics: draft.serverMetrics,
    otlpListen: otlpListenOf(draft),
  });
  if (!r.ok) {
    useRunsStore.setState({ starting: false, startIssues: issuesOfMessage(r.error.message) });
    return false;
  }
  ensureLive(r.value.runId, r.value.key);
  useRunsStore.setState({ starting: false, view: { kind: 'live' } });
  return true;
}

/**
 * The model for a later target of a sequence: the one the user picked when that server lists it
 * too (two servers of the same model is the usual comparison), else the target's own default
 * (the core falls back to the first model it lists).
 */
async function modelOn(targetId: string, picked: string): Promise<string | undefined> {
  if (!picked) return undefined;
  const r = await api.listModels(targetId);
  return r.ok && r.value.models.includes(picked) ? picked : undefined;
}

/** Starts run `i` of the sequence; on failure the sequence ends, saying why. */
async function startSequenceRun(i: number): Promise<boolean> {
  const q = useRunsStore.getState().sequence;
  if (!q) return false;
  const t = q.targets[i]!;
  useRunsStore.setState({ starting: true, startIssues: [], message: null });
  const r = await api.startRun({
    targetId: t.id,
    model: t.id === q.targets[0]!.id ? q.model || undefined : await modelOn(t.id, q.model),
    name: q.name ? `${q.name} · ${t.name}` : t.name,
    workload: q.workload,
    serverMetrics: q.serverMetrics,
    otlpListen: q.otlpListen,
    ...(t.repeat ? { repeat: t.repeat } : {}),
  });
  if (!r.ok) {
    useRunsStore.setState({ starting: false, sequence: null });
    if (i === 0) useRunsStore.setState({ startIssues: issuesOfMessage(r.error.message) });
    else
      setRunsMessage({
        tone: 'error',
        text: `The run on ${t.name} (${i + 1} of ${q.targets.length}) did not start: ${r.error.message}`,
      });
    return false;
  }
  useRunsStore.setState({ sequence: { ...q, index: i, runIds: [...q.runIds.slice(0, i), r.value.runId] } });
  const live = ensureLive(r.value.runId, r.value.key);
  useRunsStore.setState({ starting: false, view: { kind: 'live' } });
  // A run that ended before its start was answered (every request refused at once) already had
  // its finished event: go on from it now, or the sequence would wait forever.
  if (live.finished) await sequenceRunFinished(live.finished);
  return true;
}

/**
 * A run ended: when it is the current run of a sequence, start the next target's run, or open
 * them all side by side after the last. A cancelled or failed run ends the sequence there.
 */
export async function sequenceRunFinished(f: RunFinished): Promise<void> {
  const q = useRunsStore.getState().sequence;
  if (!q || q.runIds[q.index] !== f.runId) return;
  const n = q.targets.length;
  if (f.cancelled || f.error || !f.summary) {
    useRunsStore.setState({ sequence: null });
    const left = q.targets.slice(q.index + 1).map((t) => t.name);
    setRunsMessage({
      tone: f.cancelled ? 'info' : 'error',
      text: `Stopped at run ${q.index + 1} of ${n} (${f.cancelled ? 'cancelled' : (f.error ?? 'no summary')})${
        left.length ? `: ${left.join(', ')} not run` : ''
      }; the runs that finished are in the history.`,
    });
    return;
  }
  const keys = [...q.keys, f.key];
  if (q.index + 1 < n) {
    useRunsStore.setState({ sequence: { ...q, keys } });
    await startSequenceRun(q.index + 1);
    return;
  }
  useRunsStore.setState({ sequence: null, compareKeys: keys });
  await showCompare();
}

export async function cancelRun(): Promise<void> {
  const live = useRunsStore.getState().live;
  if (!live || live.finished) return;
  useRunsStore.setState({ live: { ...live, cancelling: true } });
  const r = await api.cancelRun(live.runId);
  if (!r.ok || !r.value.cancelled) {
    const cur = useRunsStore.getState().live;
    if (cur) useRunsStore.setState({ live: { ...cur, cancelling: false } });
    if (!r.ok) setRunsMessage({ tone: 'error', text: `Cancel failed: ${r.error.message}` });
  }
}

/** Show a run. `quiet`: keep the current view until it has loaded (the end of a live run). */
export async function openRun(key: string, quiet = false): Promise<void> {
  const prev = useRunsStore.getState().opened;
  const keep = prev?.key === key ? prev.detail : null;
  useRunsStore.setState({
    opened: { key, loading: true, detail: keep, error: null },
    ...(quiet ? {} : { view: { kind: 'run', key } }),
  });
  const r = await api.openRun(key);
  if (useRunsStore.getState().opened?.key !== key) return; // the user opened another meanwhile
  // Quiet (a live run just ended): switch to its summary only if the live view is still shown,
  // not when the user (or a run sequence) moved on meanwhile.
  const stillLive = useRunsStore.getState().view.kind === 'live';
  useRunsStore.setState({
    opened: { key, loading: false, detail: r.ok ? r.value : keep, error: r.ok ? null : r.error.message },
    ...(quiet && stillLive ? { view: { kind: 'run', key } } : {}),
  });
}

export function showNewRun(): void {
  useRunsStore.setState({ view: { kind: 'new' } });
}

export function showLive(): void {
  useRunsStore.setState({ view: { kind: 'live' } });
}

export async function renameRun(key: string, name: string): Promise<boolean> {
  const r = await api.renameRun(key, name);
  if (!r.ok) {
    setRunsMessage({ tone: 'error', text: `Rename failed: ${r.error.message}` });
    return false;
  }
  await refreshRuns();
  const o = useRunsStore.getState().opened;
  if (o?.key === key && o.detail)
    useRunsStore.setState({ opened: { ...o, detail: { ...o.detail, entry: { ...o.detail.entry, name } } } });
  return true;
}

/** Tick or untick a run for comparison (at most MAX_COMPARED; the oldest tick makes room). */
export function toggleCompare(key: string): void {
  const keys = useRunsStore.getState().compareKeys;
  const next = keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key].slice(-MAX_COMPARED);
  useRunsStore.setState({ compareKeys: next });
}

/** Open the comparison of the ticked runs: each run's file read again (they may have been renamed). */
export async function showCompare(): Promise<void> {
  const keys = [...useRunsStore.getState().compareKeys];
  if (keys.length < 2) return;
  const prev = useRunsStore.getState().compared;
  const same = prev !== null && prev.keys.join('\n') === keys.join('\n');
  useRunsStore.setState({
    view: { kind: 'compare' },
    compared: {
      keys,
      details: same ? prev.details : keys.map(() => null),
      errors: keys.map(() => null),
      loading: true,
    },
  });
  const results = await Promise.all(keys.map((k) => api.openRun(k)));
  const cur = useRunsStore.getState().compared;
  if (cur === null || cur.keys.join('\n') !== keys.join('\n')) return; // another comparison meanwhile
  useRunsStore.setState({
    compared: {
      keys,
      details: results.map((r) => (r.ok ? r.value : null)),
      errors: results.map((r) => (r.ok ? null : r.error.message)),
      loading: false,
    },
  });
}

export async function deleteRun(key: string): Promise<boolean> {
  const r = await api.deleteRun(key);
  if (!r.ok) {
    setRunsMessage({ tone: 'error', text: `Delete failed: ${r.error.message}` });
    return false;
  }
  const s = useRunsStore.getState();
  if (s.opened?.key === key) useRunsStore.setState({ opened: null, view: { kind: 'new' } });
  if (s.compareKeys.includes(key))
    useRunsStore.setState({ compareKeys: s.compareKeys.filter((k) => k !== key) });
  if (s.compared?.keys.includes(key))
    useRunsStore.setState({
      compared: null,
      ...(s.view.kind === 'compare' ? { view: { kind: 'new' } } : {}),
    });
  await refreshRuns();
  return true;
}

/**
 * Web mode uploads the file as it is (streamed, up to 1 GiB: a vLLM detailed result is hundreds of
 * MB, far past a socket message); Electron hands its text over IPC.
 */
async function sendImport(file: File): Promise<Result<ImportOutcome>> {
  const web = getWebApi();
  if (web) return web.importFile(file, file.name);
  let content: string;
  try {
    content = await file.text();
  } catch (e) {
    return { ok: false, error: { kind: 'io', message: `Cannot read ${file.name}: ${errorMessage(e)}` } };
  }
  return api.importRun({ filename: file.name, content });
}

export async function importRunFile(file: File): Promise<boolean> {
  setRunsMessage({ tone: 'info', text: `Importing ${file.name}…` });
  const r = await sendImport(file);
  if (!r.ok) {
    setRunsMessage({ tone: 'error', text: `Import failed: ${r.error.message}` });
    return false;
  }
  const { keys, warnings } = r.value;
  setRunsMessage({
    tone: 'info',
    text: `Imported ${keys.length} result${keys.length === 1 ? '' : 's'} from ${file.name}${warnings.length ? ` — ${warnings.join('; ')}` : ''}`,
  });
  await refreshRuns();
  if (keys[0]) await openRun(keys[0]);
  return true;
}

export async function revealRun(key?: string): Promise<void> {
  const r = await api.revealRun(key);
  if (!r.ok) {
    setRunsMessage({ tone: 'error', text: `Cannot show the folder: ${r.error.message}` });
    return;
  }
  setRunsMessage({
    tone: 'info',
    text: r.value.revealed ? `Shown in the file manager: ${r.value.path}` : `File: ${r.value.path}`,
  });
}

/** Load a workload file (JSON, or YAML by extension) into the form. */
export async function loadWorkloadFile(file: File): Promise<boolean> {
  try {
    const r = parseWorkloadText(await file.text(), file.name);
    if (!r.ok)
      throw new Error(r.error.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '));
    const { targets } = useAppStore.getState();
    const o = targetOutcome(file.name, r.value.target, targets, formTarget(), addFileTarget);
    useRunsStore.setState({
      draft: { ...workloadToDraft(r.value), model: o.model },
      startIssues: [],
      ...(o.targetId ? { targetId: o.targetId } : {}),
    });
    setRunsMessage(o.message);
    return true;
  } catch (e) {
    setRunsMessage({ tone: 'error', text: `${file.name}: ${errorMessage(e)}` });
    return false;
  }
}

/** The form as a workload file `tokenscope run` takes (with the target's URL, dialect and model). */
export function saveWorkloadFile(): void {
  const { draft } = useRunsStore.getState();
  const t = formTarget();
  const w = draftToWorkload(
    draft,
    t ? { url: t.baseUrl, dialect: t.dialect, model: draft.model.trim() || t.defaultModel } : undefined,
  );
  const stem = (draft.name.trim() || 'workload').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  download({
    filename: `${stem}.json`,
    mime: 'application/json',
    content: JSON.stringify(w, null, 2) + '\n',
  });
}
