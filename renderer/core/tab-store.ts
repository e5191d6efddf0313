/**
 * Which view fills the main area — the request (stream debugger), server metrics or load runs —
 * remembered across sessions like the selected target. In core: features switch to a tab too
 * (opening a request from the history shows the Request tab).
 */
import { create } from 'zustand';

export type MainTab = 'request' | 'metrics' | 'runs';

const KEY = 'tokenscope.mainTab.v1';
/** Where the tab was remembered before it had a key of its own (with the metrics panel's choices). */
const OLD_KEY = 'tokenscope.metricsPanel.v1';

function load(): MainTab {
  try {
    if (typeof localStorage === 'undefined') return 'request';
    const raw =
      localStorage.getItem(KEY) ??
      (JSON.parse(localStorage.getItem(OLD_KEY) ?? '{}') as { tab?: unknown }).tab;
    return raw === 'metrics' || raw === 'runs' ? raw : 'request';
  } catch {
    return 'request';
  }
}

export const useTabStore = create<{ tab: MainTab }>(() => ({ tab: load() }));

export function setTab(tab: MainTab): void {
  useTabStore.setState({ tab });
  try {
    localStorage.setItem(KEY, tab);
  } catch {
    // Not remembered; the choice still holds for this session.
  }
}
