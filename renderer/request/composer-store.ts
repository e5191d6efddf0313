/**
 * The composer's form, kept across sessions (localStorage) so the last prompt and parameters
 * are there after a restart. Never holds secrets: API keys live in the target, in the core.
 */
import { create } from 'zustand';
import type { TargetView } from '../../shared/api.ts';
import { DEFAULT_FORM, type ComposerForm } from './fire-input.ts';
import { selectTarget } from '../core/app-store.ts';

const KEY = 'tokenscope.composer.v1';

function load(): ComposerForm {
  try {
    const raw = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;
    if (!raw) return DEFAULT_FORM;
    const v = JSON.parse(raw) as Partial<ComposerForm>;
    return {
      ...DEFAULT_FORM,
      ...v,
      messages: Array.isArray(v.messages) ? v.messages : DEFAULT_FORM.messages,
      headers: Array.isArray(v.headers) ? v.headers : [],
      inputs: Array.isArray(v.inputs) ? v.inputs : DEFAULT_FORM.inputs,
    };
  } catch {
    return DEFAULT_FORM;
  }
}

export const useComposerStore = create<ComposerForm>(() => load());

let saveTimer: ReturnType<typeof setTimeout> | null = null;

export function patchForm(patch: Partial<ComposerForm>): void {
  useComposerStore.setState(patch);
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    try {
      localStorage.setItem(KEY, JSON.stringify(useComposerStore.getState()));
    } catch {
      // Full or disabled storage: the form still works, it just is not remembered.
    }
  }, 300);
}

export function replaceForm(form: ComposerForm): void {
  patchForm(form);
}

/** Select a target for the composer: its dialect and default model replace the previous target's. */
export function switchTarget(t: TargetView): void {
  selectTarget(t.id);
  patchForm({ dialect: null, model: t.defaultModel ?? '' });
}
