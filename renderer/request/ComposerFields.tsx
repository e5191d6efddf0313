/**
 * The composer's request fields: the target (with edit and add), the dialect, the prompt or chat
 * messages, and the extra body JSON. Each edit goes straight to the composer store.
 */
import type { TargetView } from '../../shared/api.ts';
import { DIALECT_IDS, DIALECT_LABELS, type DialectId } from '../../shared/dialects.ts';
import type { ChatMessage } from '../../shared/request.ts';
import { useAppStore } from '../core/app-store.ts';
import type { ParseResult } from './fire-input.ts';
import { patchForm, switchTarget } from './composer-store.ts';
import { MessagesEditor } from './MessagesEditor.tsx';

export function TargetField({ targets, target }: { targets: TargetView[]; target: TargetView | null }) {
  return (
    <div className="field">
      <label htmlFor="target-select">Target</label>
      <div className="row gap">
        <select
          id="target-select"
          data-testid="target-select"
          value={target?.id ?? ''}
          onChange={(e) => {
            const t = targets.find((x) => x.id === e.target.value);
            if (t) switchTarget(t);
          }}
        >
          {targets.length === 0 && <option value="">loading…</option>}
          {targets.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
              {t.builtin ? ' (built-in)' : ''}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn icon"
          title="Edit target"
          aria-label="Edit target"
          disabled={!target || target.builtin}
          onClick={() => useAppStore.setState({ editing: target?.id ?? null })}
        >
          ✎
        </button>
        <button
          type="button"
          className="btn icon"
          title="Add a target"
          aria-label="Add target"
          data-testid="target-add"
          onClick={() => useAppStore.setState({ editing: 'new' })}
        >
          +
        </button>
      </div>
      {target && (
        <p className="field-hint mono" title={target.baseUrl}>
          {target.baseUrl}
        </p>
      )}
    </div>
  );
}

/** The form's dialect override ('' = the target's own, named in the first option). */
export function DialectField({
  value,
  dialect,
  target,
}: {
  value: DialectId | null;
  /** The dialect in effect: the override, else the target's. */
  dialect: DialectId;
  target: TargetView | null;
}) {
  return (
    <div className="field">
      <label htmlFor="dialect-select">Dialect</label>
      <select
        id="dialect-select"
        data-testid="dialect-select"
        value={value ?? ''}
        onChange={(e) => patchForm({ dialect: (e.target.value || null) as DialectId | null })}
        title={DIALECT_LABELS[dialect]}
      >
        <option value="">{target ? `${DIALECT_LABELS[target.dialect]} (the target's)` : '—'}</option>
        {DIALECT_IDS.map((d) => (
          <option key={d} value={d}>
            {DIALECT_LABELS[d]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Chat messages for a chat dialect, else one prompt. */
export function PromptField({
  chat,
  messages,
  prompt,
  error,
}: {
  chat: boolean;
  messages: ChatMessage[];
  prompt: string;
  error?: string;
}) {
  return (
    <div className="field">
      <label>{chat ? 'Messages' : 'Prompt'}</label>
      {chat ? (
        <MessagesEditor messages={messages} onChange={(m) => patchForm({ messages: m })} error={error} />
      ) : (
        <>
          <textarea
            data-testid="prompt"
            aria-label="Prompt"
            rows={6}
            value={prompt}
            onChange={(e) => patchForm({ prompt: e.target.value })}
          />
          {error && <p className="field-error">{error}</p>}
        </>
      )}
    </div>
  );
}

/** Extra body JSON, merged last; open while it holds something. */
export function ExtraBodyField({ value, parsed }: { value: string; parsed: ParseResult<unknown> }) {
  return (
    <details className="sub" open={value.trim() !== ''}>
      <summary>Extra body (JSON, merged last)</summary>
      <textarea
        className={`mono${parsed.ok ? '' : ' invalid'}`}
        data-testid="extra-body"
        aria-label="Extra body JSON"
        aria-invalid={!parsed.ok}
        rows={4}
        spellCheck={false}
        placeholder='{"top_k": 20, "repetition_penalty": 1.05}'
        value={value}
        onChange={(e) => patchForm({ extraBody: e.target.value })}
      />
      {!parsed.ok && <p className="field-error">{parsed.error}</p>}
    </details>
  );
}
