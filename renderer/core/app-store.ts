/**
 * App-level summaries: the targets, which one is selected, app info, the link state and the
 * one notice line. Read with narrow selectors (`useAppStore((s) => s.targets)`).
 */
import { create } from 'zustand';
import type { AppInfo, TargetView } from '../../shared/api.ts';
import type { TargetSettings } from '../../shared/target.ts';
import type { ConnectionState } from './transport/types.ts';

export interface Notice {
  tone: 'error' | 'info';
  text: string;
}

export interface AppState {
  info: AppInfo | null;
  targets: TargetView[];
  targetsLoaded: boolean;
  selectedTargetId: string | null;
  connection: ConnectionState;
  notice: Notice | null;
  /** Target editor: null closed, 'new', or the id being edited. */
  editing: string | null;
  /** A new target's fields filled in beforehand (from a workload file's target), or null. */
  newTargetPrefill: TargetPrefill | null;
}

/** The fields of a new target the editor starts with (a subset of its form). */
type TargetPrefill = Partial<
  Pick<TargetSettings, 'name' | 'baseUrl' | 'dialect' | 'defaultModel' | 'insecureTls'>
> & {
  headers?: { key: string; value: string }[];
};

const SELECTED_KEY = 'tokenscope.selectedTarget';

function loadSelected(): string | null {
  try {
    return typeof localStorage !== 'undefined' ? localStorage.getItem(SELECTED_KEY) : null;
  } catch {
    return null;
  }
}

export const useAppStore = create<AppState>(() => ({
  info: null,
  targets: [],
  targetsLoaded: false,
  selectedTargetId: loadSelected(),
  connection: { status: 'connecting', attempt: 0, retryAt: null, reconnects: 0, detail: null },
  notice: null,
  editing: null,
  newTargetPrefill: null,
}));

/** The selected target if it still exists, else the built-in simulator, else the first. */
export function pickTarget(targets: TargetView[], selected: string | null): TargetView | null {
  return targets.find((t) => t.id === selected) ?? targets.find((t) => t.builtin) ?? targets[0] ?? null;
}

export function setTargets(targets: TargetView[]): void {
  useAppStore.setState({ targets, targetsLoaded: true });
}

export function selectTarget(id: string): void {
  useAppStore.setState({ selectedTargetId: id });
  try {
    localStorage.setItem(SELECTED_KEY, id);
  } catch {
    // Not persisted; the selection still holds for this session.
  }
}

export function setNotice(notice: Notice | null): void {
  useAppStore.setState({ notice });
}

export function useSelectedTarget(): TargetView | null {
  return useAppStore((s) => pickTarget(s.targets, s.selectedTargetId));
}
