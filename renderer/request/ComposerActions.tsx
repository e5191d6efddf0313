/**
 * The composer's actions: send (to both servers when side by side), cancel the running request,
 * copy as curl; and the choice of a second target to send side by side with.
 */
import type { TargetView } from '../../shared/api.ts';
import { cancelCurrent } from './controller.ts';
import { useRequestStore } from './request-store.ts';

/** The send shortcut's modifier as this platform writes it (⌘ on Apple systems, Ctrl elsewhere). */
const IS_MAC =
  typeof navigator !== 'undefined' &&
  /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent || '');

interface Props {
  onSend: () => void;
  onCopyCurl: () => void;
  copied: boolean;
  /** A target is selected. */
  hasTarget: boolean;
  /** The extra body's parse error (sending waits until it is fixed); null when valid. */
  extraError: string | null;
  sideBySide: boolean;
}

export function ComposerActions({ onSend, onCopyCurl, copied, hasTarget, extraError, sideBySide }: Props) {
  const running = useRequestStore((s) => s.current.state === 'running');
  const firing = useRequestStore((s) => s.firing);
  return (
    <div className="actions">
      <button
        type="button"
        className="btn primary"
        data-testid="composer-send"
        onClick={onSend}
        disabled={firing || !hasTarget || extraError !== null}
        title={
          extraError !== null
            ? `Fix the extra body first: ${extraError}`
            : `Send (${IS_MAC ? '⌘' : 'Ctrl'}+Enter)`
        }
      >
        {firing ? 'Sending…' : sideBySide ? 'Send to both' : 'Send'} <kbd>{IS_MAC ? '⌘↵' : 'Ctrl+↵'}</kbd>
      </button>
      <button
        type="button"
        className="btn danger"
        data-testid="composer-cancel"
        onClick={() => void cancelCurrent()}
        disabled={!running}
      >
        Cancel
      </button>
      <button
        type="button"
        className="btn ghost"
        data-testid="composer-curl"
        onClick={onCopyCurl}
        title="Copy the same request as a curl command (the API key is referenced as $TOKENSCOPE_API_KEY, never written out)"
      >
        {copied ? 'Copied ✓' : 'Copy as curl'}
      </button>
    </div>
  );
}

export function SideBySideSelect({
  targets,
  target,
  side,
}: {
  targets: TargetView[];
  target: TargetView | null;
  side: TargetView | null;
}) {
  return (
    <div className="field side-by-side">
      <label htmlFor="side-by-side-select">Side by side with</label>
      <select
        id="side-by-side-select"
        data-testid="side-by-side-select"
        value={side?.id ?? ''}
        title="Send also fires the same request at this target, at the same moment; both stream live on one time axis"
        onChange={(e) => useRequestStore.setState({ sideBySideTargetId: e.target.value || null })}
      >
        <option value="">— nobody: this target only</option>
        {targets
          .filter((t) => t.id !== target?.id)
          .map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
      </select>
    </div>
  );
}
