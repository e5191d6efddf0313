/**
 * Sending from the composer: the form built into a request (its field errors kept for the form
 * to show), fired at the target (and at the side-by-side one), or copied as curl. Ctrl/Cmd+Enter sends.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FireInput, TargetView } from '../../shared/api.ts';
import { api } from '../core/api.ts';
import { setNotice, useAppStore } from '../core/app-store.ts';
import { buildFireInput, type ComposerForm, type FieldErrors } from './fire-input.ts';
import { useComposerStore } from './composer-store.ts';
import { fire, fireSideBySide } from './controller.ts';
import { useRequestStore } from './request-store.ts';

/**
 * The composer's request for the other server of a side-by-side send: the same form, its own
 * dialect (unless the form overrides it), and the same model when that server lists it, else its
 * default model or the first it lists.
 */
async function sideInput(
  form: ComposerForm,
  t: TargetView,
): Promise<{ input: FireInput } | { error: string }> {
  const r = await api.listModels(t.id);
  const listed = r.ok ? r.value.models : [];
  const model = listed.includes(form.model.trim()) ? form.model : (t.defaultModel ?? listed[0] ?? '');
  if (!model)
    return {
      error: `no model: it lists none${r.ok ? '' : ` (${r.error.message})`}; set a default model in the target`,
    };
  const b = buildFireInput({ ...form, model }, t.id, t.dialect);
  return b.ok ? { input: b.value } : { error: Object.values(b.error).join(' ') };
}

export function useComposerSend(
  target: TargetView | null,
  side: TargetView | null,
): {
  /** The form's errors from the last send or copy. */
  errors: FieldErrors;
  send: () => Promise<void>;
  copyCurl: () => Promise<void>;
  /** Just copied to the clipboard (for 1.5 s). */
  copied: boolean;
  /** A curl command to show for copying by hand (no clipboard permission), until closed. */
  curl: string | null;
  closeCurl: () => void;
} {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [curl, setCurl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  const build = useCallback(() => {
    const f = useComposerStore.getState();
    if (!target) {
      setErrors({ model: 'No target: add one first.' });
      return null;
    }
    const r = buildFireInput(f, target.id, target.dialect);
    setErrors(r.ok ? {} : r.error);
    return r.ok ? r.value : null;
  }, [target]);

  const send = useCallback(async () => {
    if (useRequestStore.getState().firing) return;
    const input = build();
    if (!input || !target) return;
    if (!side) {
      await fire(input);
      return;
    }
    const other = await sideInput(useComposerStore.getState(), side);
    if ('error' in other) {
      useRequestStore.setState({ fireError: `${side.name}: ${other.error}` });
      return;
    }
    await fireSideBySide(input, other.input, [target.name, side.name]);
  }, [build, side, target]);

  const copyCurl = async (): Promise<void> => {
    const input = build();
    if (!input) return;
    const r = await api.curlFor(input);
    if (!r.ok) {
      setNotice({ tone: 'error', text: `curl: ${r.error.message}` });
      return;
    }
    try {
      await navigator.clipboard.writeText(r.value.command);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCurl(r.value.command); // no clipboard permission: show it to copy by hand
    }
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !useAppStore.getState().editing) {
        e.preventDefault();
        void send();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [send]);

  return { errors, send, copyCurl, copied, curl, closeCurl: () => setCurl(null) };
}
