/**
 * This session's requests, newest first (listHistory, kept current by onRequestStarted and
 * onRequestFinished). Click to reopen (in the Request tab, leaving the metrics panel); re-run
 * fires the same FireInput; compare overlays one with the current request; edit loads its input
 * into the composer.
 */
import type { RequestSummary } from '../../shared/api.ts';
import { fmtMs } from '../../shared/format.ts';
import { isNonStreamingDialect } from '../../shared/dialects.ts';
import { DEFAULT_FORM, formFromInput } from './fire-input.ts';
import { setTab } from '../core/tab-store.ts';
import { fmtClock } from '../core/format-date.ts';
import { selectTarget, useAppStore } from '../core/app-store.ts';
import { replaceForm, useComposerStore } from './composer-store.ts';
import { inputOf, openRequest, rerun, setCompare } from './controller.ts';
import { useRequestStore } from './request-store.ts';

const clock = (wall: number): string => fmtClock(wall);

async function loadIntoComposer(id: string): Promise<void> {
  const input = await inputOf(id);
  if (!input) return;
  if (useAppStore.getState().targets.some((t) => t.id === input.targetId)) selectTarget(input.targetId);
  replaceForm(formFromInput(input, useComposerStore.getState() ?? DEFAULT_FORM));
}

function Item({
  s,
  current,
  compared,
  canCompare,
}: {
  s: RequestSummary;
  current: boolean;
  compared: boolean;
  canCompare: boolean;
}) {
  const pooled = isNonStreamingDialect(s.dialect);
  return (
    <li
      className={`history-item${current ? ' current' : ''}${compared ? ' compared' : ''}`}
      data-testid="history-item"
      data-request-id={s.id}
      data-state={s.state}
    >
      <button
        type="button"
        className="hi-main"
        onClick={() => {
          // The request opens in the Request tab: leave the metrics panel if it is shown.
          setTab('request');
          void openRequest(s.id);
        }}
        title={`Open ${s.id}`}
      >
        <span className={`dot state-${s.state}`} aria-label={s.state} />
        <span className="hi-time">{clock(s.startedAtWall)}</span>
        <span className="hi-target">{s.targetName}</span>
        <span className="hi-model mono">{s.model}</span>
        <span className="hi-nums">
          <span title={pooled ? 'Not streamed: one JSON answer, no token to time' : 'TTFT'}>
            {pooled
              ? s.dialect === 'rerank'
                ? 'rerank'
                : 'embeddings'
              : s.ttftMs !== null
                ? `TTFT ${fmtMs(s.ttftMs, 1)}`
                : s.state === 'running'
                  ? 'running…'
                  : 'no token'}
          </span>
          <span title="E2E">{s.e2eMs !== null ? fmtMs(s.e2eMs, 0) : ''}</span>
          <span title="Output tokens">{s.state !== 'running' && !pooled ? `${s.outputTokens} tok` : ''}</span>
          {s.state === 'cancelled' ? (
            <span className="badge tiny neutral">cancelled</span>
          ) : (
            s.errorKind && <span className={`badge tiny kind-${s.errorKind}`}>{s.errorKind}</span>
          )}
        </span>
        <span className="hi-prompt">{s.promptPreview}</span>
      </button>
      <div className="hi-actions">
        <button
          type="button"
          className="btn tiny ghost"
          onClick={() => void rerun(s.id)}
          title="Fire the same request again"
          data-testid="history-rerun"
        >
          re-run
        </button>
        {compared ? (
          <button
            type="button"
            className="btn tiny ghost on"
            onClick={() => void setCompare(null)}
            title="Stop comparing"
          >
            comparing ✕
          </button>
        ) : (
          <button
            type="button"
            className="btn tiny ghost"
            disabled={!canCompare}
            onClick={() => {
              setTab('request'); // the comparison is drawn in the Request tab
              void setCompare(s.id);
            }}
            title="Compare with the current request"
            data-testid="history-compare"
          >
            compare
          </button>
        )}
        <button
          type="button"
          className="btn tiny ghost"
          onClick={() => void loadIntoComposer(s.id)}
          title="Load this request into the composer"
        >
          edit
        </button>
      </div>
    </li>
  );
}

export function History() {
  const history = useRequestStore((s) => s.history);
  const currentId = useRequestStore((s) => s.current.id);
  const compareId = useRequestStore((s) => s.compare.id);
  return (
    <section className="card history" aria-label="History">
      <header className="card-head">
        <h3>History</h3>
        <span className="muted">{history.length ? `${history.length} this session` : ''}</span>
      </header>
      {history.length === 0 ? (
        <p className="empty">Requests you send appear here.</p>
      ) : (
        <ul className="history-list">
          {history.map((s) => (
            <Item
              key={s.id}
              s={s}
              current={s.id === currentId}
              compared={s.id === compareId}
              canCompare={Boolean(currentId) && s.id !== currentId}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
