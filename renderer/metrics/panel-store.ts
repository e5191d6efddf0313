/**
 * The metrics panel's choices (window, client-vs-server window, a second target beside the
 * selected one), remembered across sessions like the selected target. The main tab: core/tab-store.ts.
 */
import { create } from 'zustand';
import type { CvsWindowId } from './client-vs-server.ts';
import type { WindowId } from './time-axis.ts';

type CvsWindow = CvsWindowId;

export interface PanelState {
  window: WindowId;
  cvsWindow: CvsWindow;
  /** A second target whose metrics are shown beside the selected one's (null: one target). */
  compareTargetId: string | null;
}

const KEY = 'tokenscope.metricsPanel.v1';

function load(): PanelState {
  const d: PanelState = { window: '1m', cvsWindow: '1m', compareTargetId: null };
  try {
    const raw = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;
    if (!raw) return d;
    const v = JSON.parse(raw) as Partial<PanelState>;
    return {
      window: v.window === '5m' || v.window === '15m' ? v.window : '1m',
      cvsWindow: v.cvsWindow === '5m' || v.cvsWindow === 'all' ? v.cvsWindow : '1m',
      compareTargetId: typeof v.compareTargetId === 'string' ? v.compareTargetId : null,
    };
  } catch {
    return d;
  }
}

export const usePanelStore = create<PanelState>(() => load());

export function setPanel(patch: Partial<PanelState>): void {
  usePanelStore.setState(patch);
  try {
    localStorage.setItem(KEY, JSON.stringify(usePanelStore.getState()));
  } catch {
    // Not remembered; the choice still holds for this session.
  }
}
