/** One dismissable line for failures that belong to no field (cancel failed, request not found…). */
import { setNotice, useAppStore } from '../core/app-store.ts';

export function NoticeBar() {
  const notice = useAppStore((s) => s.notice);
  if (!notice) return null;
  return (
    <div className={`banner ${notice.tone === 'error' ? 'bad' : 'info'}`} role="alert" data-testid="notice">
      <span>{notice.text}</span>
      <button type="button" className="btn small ghost" onClick={() => setNotice(null)} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
