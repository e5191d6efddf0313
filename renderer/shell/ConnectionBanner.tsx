/**
 * Web mode's link to the core: a banner while connecting or reconnecting, with a countdown and
 * retry; when the server refuses the page's token, a field to paste the right one (no endless retry).
 */
import { useEffect, useState } from 'react';
import { applyToken, getTransport } from '../core/api.ts';
import { useAppStore } from '../core/app-store.ts';

export function ConnectionBanner() {
  const c = useAppStore((s) => s.connection);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (c.status === 'open') return;
    const h = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(h);
  }, [c.status]);
  if (c.status === 'open') return null;
  if (c.status === 'unauthorized') return <TokenBanner detail={c.detail} />;
  const secs = c.retryAt ? Math.max(0, Math.ceil((c.retryAt - now) / 1000)) : null;
  const t = getTransport() as { retryNow?: () => void };
  return (
    <div
      className={`banner ${c.status === 'reconnecting' ? 'warn' : 'info'}`}
      role="status"
      data-testid="connection-banner"
    >
      <b>{c.status === 'reconnecting' ? 'Connection lost.' : 'Connecting to Tokenscope…'}</b>
      {c.detail && <span>{c.detail}</span>}
      {secs !== null && c.attempt > 0 && (
        <span>
          Retrying in {secs} s (attempt {c.attempt}).
        </span>
      )}
      {typeof t.retryNow === 'function' && c.attempt > 0 && (
        <button type="button" className="btn small" onClick={() => t.retryNow?.()}>
          Retry now
        </button>
      )}
    </div>
  );
}

function TokenBanner({ detail }: { detail: string | null }) {
  const [value, setValue] = useState('');
  return (
    <form
      className="banner bad token-banner"
      role="alert"
      data-testid="token-banner"
      onSubmit={(e) => {
        e.preventDefault();
        applyToken(value);
      }}
    >
      <b>Not connected: access refused.</b>
      {detail && <span>{detail}</span>}
      <label className="token-field">
        Token
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          placeholder="paste the token"
          onChange={(e) => setValue(e.target.value)}
          data-testid="token-input"
        />
      </label>
      <button type="submit" className="btn small" disabled={!value.trim()}>
        Connect
      </button>
    </form>
  );
}
