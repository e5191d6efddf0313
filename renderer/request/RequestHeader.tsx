/**
 * The current request in one line: its state (also the e2e probe element, see live/probe.ts),
 * target, model, dialect, endpoint and HTTP status.
 */
import { DIALECT_LABELS, isNonStreamingDialect } from '../../shared/dialects.ts';
import { attachProbe } from './probe.ts';
import { useRequestStore } from './request-store.ts';

const STATE_LABEL = {
  idle: 'idle',
  running: 'streaming',
  done: 'done',
  error: 'error',
  cancelled: 'cancelled',
} as const;

export function RequestHeader() {
  const state = useRequestStore((s) => s.current.state);
  const id = useRequestStore((s) => s.current.id);
  const summary = useRequestStore((s) => s.current.summary);
  const url = useRequestStore((s) => s.current.digest?.url ?? '');
  const status = useRequestStore((s) => s.current.digest?.status ?? null);
  const missing = useRequestStore((s) => s.current.missing);
  const trace = useRequestStore((s) => s.current.digest?.trace);
  const serverId = useRequestStore((s) => s.current.digest?.serverRequestId ?? null);
  const responseId = useRequestStore((s) => s.current.digest?.responseId);
  return (
    <header className="request-header">
      <span
        ref={attachProbe}
        className={`state-badge state-${state}`}
        data-testid="request-state"
        aria-live="polite"
      >
        {state === 'running' && summary && isNonStreamingDialect(summary.dialect)
          ? 'waiting'
          : STATE_LABEL[state]}
      </span>
      {id ? (
        <>
          <span className="rh-target">{summary?.targetName ?? ''}</span>
          <span className="rh-model mono">{summary?.model ?? ''}</span>
          {summary && <span className="muted">{DIALECT_LABELS[summary.dialect]}</span>}
          {url && (
            <span className="muted mono rh-url" title={url}>
              {url}
            </span>
          )}
          {status !== null && (
            <span className={`badge ${status >= 200 && status < 300 ? 'ok' : 'bad'}`}>HTTP {status}</span>
          )}
          <span className="spacer" />
          {trace && (
            <span
              className="muted mono rh-trace"
              data-testid="trace-id"
              title={`traceparent 00-${trace.traceId}-${trace.spanId}-01 · x-request-id ${trace.requestId}`}
            >
              trace {trace.traceId.slice(0, 8)}
            </span>
          )}
          {(responseId ?? serverId) && (
            <span
              className="muted mono rh-server-id"
              data-testid="server-ids"
              title={`The server's ids: stream id ${responseId ?? '—'} · x-request-id echo ${serverId ?? '—'}`}
            >
              {(responseId ?? serverId ?? '').slice(0, 24)}
            </span>
          )}
          <span className="muted mono rh-id" title="Request id">
            {id.slice(0, 8)}
          </span>
        </>
      ) : (
        <span className="muted">Send a request to see its tokens arrive.</span>
      )}
      {missing && (
        <span
          className="badge warn"
          title="Some live batches were lost while reconnecting; the complete record loads when the request finishes."
        >
          gaps while reconnecting
        </span>
      )}
    </header>
  );
}
