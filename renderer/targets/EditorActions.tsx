import type { TargetView } from '../../shared/api.ts';

/** Save or add, cancel, and delete behind a second click. */
export function EditorActions({
  existing,
  busy,
  close,
  confirmDelete,
  setConfirmDelete,
  remove,
}: {
  existing: TargetView | undefined;
  busy: boolean;
  close: () => void;
  confirmDelete: boolean;
  setConfirmDelete: (v: boolean) => void;
  remove: () => Promise<void>;
}) {
  return (
    <>
      <div className="actions">
        <button type="submit" className="btn primary" disabled={busy} data-testid="target-save">
          {existing ? 'Save' : 'Add target'}
        </button>
        <button type="button" className="btn" onClick={close}>
          Cancel
        </button>
        <span className="spacer" />
        {existing &&
          (confirmDelete ? (
            <button
              type="button"
              className="btn danger"
              disabled={busy}
              onClick={() => void remove()}
              data-testid="target-delete-confirm"
            >
              Really delete
            </button>
          ) : (
            <button
              type="button"
              className="btn ghost danger-text"
              onClick={() => setConfirmDelete(true)}
              data-testid="target-delete"
            >
              Delete…
            </button>
          ))}
      </div>
    </>
  );
}
