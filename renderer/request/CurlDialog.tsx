/** Shows the curl command when the clipboard is not available, selected for copying by hand. */
import { useEffect, useRef } from 'react';

export function CurlDialog({ command, onClose }: { command: string; onClose: () => void }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    ref.current?.select();
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label="curl command"
        onClick={(e) => e.stopPropagation()}
      >
        <h3>curl command</h3>
        <p className="muted">The clipboard is not available here: copy it by hand (it is selected).</p>
        <textarea ref={ref} className="mono" readOnly rows={10} value={command} data-testid="curl-text" />
        <div className="actions">
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
