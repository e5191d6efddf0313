/**
 * Add, edit or delete a target. The API key field is write-only: the UI never sees a stored
 * key, only whether there is one ("key stored"); typing replaces it, "clear" removes it.
 */
import { useEffect, useState } from 'react';
import { api } from '../core/api.ts';
import {
  buildTargetInput,
  formFromTarget,
  NEW_TARGET,
  type TargetErrors,
  type TargetForm,
} from './target-input.ts';
import { setTargets, useAppStore } from '../core/app-store.ts';
import type { TargetView } from '../../shared/api.ts';
import { AuthFields } from './AuthFields.tsx';
import { EditorActions } from './EditorActions.tsx';
import { IdentityFields } from './IdentityFields.tsx';
import { MetricsFields } from './MetricsFields.tsx';
import { TlsField } from './TlsField.tsx';

/**
 * `onSwitch`: a new target was saved, or the open one's defaults changed — the app selects it
 * (the shell passes the composer's switch, so a feature below does not reach up into another).
 */
export function TargetEditor({ onSwitch }: { onSwitch: (t: TargetView) => void }) {
  const editing = useAppStore((s) => s.editing);
  const prefillUrl = useAppStore((s) => s.newTargetPrefill?.baseUrl ?? '');
  if (!editing) return null;
  // Keyed by what is edited: another target (or a new one filled in from elsewhere) starts afresh.
  return <TargetEditorDialog key={`${editing}\u0000${prefillUrl}`} editing={editing} onSwitch={onSwitch} />;
}

function TargetEditorDialog({ editing, onSwitch }: { editing: string; onSwitch: (t: TargetView) => void }) {
  const targets = useAppStore((s) => s.targets);
  const secretsPersisted = useAppStore((s) => s.info?.secretsPersisted ?? false);
  const existing = editing !== 'new' ? targets.find((t) => t.id === editing) : undefined;
  // The first frame already shows the target's values (or the prefilled new one): no flash of defaults.
  const [form, setForm] = useState<TargetForm>(() =>
    existing ? formFromTarget(existing) : { ...NEW_TARGET, ...useAppStore.getState().newTargetPrefill },
  );
  const [errors, setErrors] = useState<TargetErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const close = (): void => useAppStore.setState({ editing: null, newTargetPrefill: null });

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const set = (patch: Partial<TargetForm>): void => setForm((f) => ({ ...f, ...patch }));

  const save = async (): Promise<void> => {
    const r = buildTargetInput(form, existing ?? null);
    if (!r.ok) {
      setErrors(r.error);
      return;
    }
    setErrors({});
    setBusy(true);
    const res = await api.saveTarget(r.value);
    setBusy(false);
    if (!res.ok) {
      setSaveError(res.error.message);
      return;
    }
    const list = await api.listTargets();
    if (list.ok) setTargets(list.value);
    // A new target, or the open one's defaults changed: the app (and the composer) switch to it.
    const prevSelected = useAppStore.getState().selectedTargetId;
    if (
      !existing ||
      prevSelected !== res.value.id ||
      existing.defaultModel !== res.value.defaultModel ||
      existing.dialect !== res.value.dialect
    )
      onSwitch(res.value);
    close();
  };

  const remove = async (): Promise<void> => {
    if (!existing) return;
    setBusy(true);
    const res = await api.deleteTarget(existing.id);
    setBusy(false);
    if (!res.ok) {
      setSaveError(res.error.message);
      return;
    }
    const list = await api.listTargets();
    if (list.ok) setTargets(list.value);
    close();
  };

  return (
    <div className="modal-backdrop" onMouseDown={close}>
      <form
        className="modal target-editor"
        role="dialog"
        aria-modal="true"
        aria-label={existing ? `Edit target ${existing.name}` : 'Add a target'}
        onMouseDown={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h3>{existing ? `Edit “${existing.name}”` : 'Add a target'}</h3>
        <IdentityFields form={form} set={set} errors={errors} existing={existing} />
        <AuthFields
          form={form}
          set={set}
          errors={errors}
          existing={existing}
          secretsPersisted={secretsPersisted}
        />
        <MetricsFields form={form} set={set} errors={errors} />
        <TlsField form={form} set={set} />
        {saveError && <p className="field-error">{saveError}</p>}
        <EditorActions
          existing={existing}
          busy={busy}
          close={close}
          confirmDelete={confirmDelete}
          setConfirmDelete={setConfirmDelete}
          remove={remove}
        />
      </form>
    </div>
  );
}
