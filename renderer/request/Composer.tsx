/**
 * Compose and fire one streaming request: target, dialect, model, prompt or chat messages,
 * sampling parameters, stream options, extra body JSON and headers. Ctrl/Cmd+Enter sends.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FireInput, TargetView } from '../../shared/api.ts';
import { DIALECT_IDS, DIALECT_LABELS, type DialectId } from '../../shared/dialects.ts';
import { api } from '../core/api.ts';
import { isChatDialect } from '../targets/dialect-ui.ts';
import { buildFireInput, parseExtraBody, type ComposerForm, type FieldErrors } from './fire-input.ts';
import { setNotice, useAppStore, useSelectedTarget } from '../core/app-store.ts';
import { patchForm, switchTarget, useComposerStore } from './composer-store.ts';
import { cancelCurrent, fire, fireSideBySide } from './controller.ts';
import { useRequestStore } from './request-store.ts';
import { CurlDialog } from './CurlDialog.tsx';
import { ComposerParams } from './ComposerParams.tsx';
import { HeadersEditor } from '../targets/HeadersEditor.tsx';
import { MessagesEditor } from './MessagesEditor.tsx';
import { ModelPicker } from '../targets/ModelPicker.tsx';

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
  return b.ok ? { input: b.input } : { error: Object.values(b.errors).join(' ') };
}

/** The send shortcut's modifier as this platform writes it (⌘ on Apple systems, Ctrl elsewhere). */
const IS_MAC =
  typeof navigator !== 'undefined' &&
  /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent || '');

export function Composer() {
  const targets = useAppStore((s) => s.targets);
  const target = useSelectedTarget();
  const form = useComposerStore();
  const running = useRequestStore((s) => s.current.state === 'running');
  const sideId = useRequestStore((s) => s.sideBySideTargetId);
  const side = targets.find((t) => t.id === sideId && t.id !== target?.id) ?? null;
  const firing = useRequestStore((s) => s.firing);
  const fireError = useRequestStore((s) => s.fireError);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [curl, setCurl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const dialect: DialectId = form.dialect ?? target?.dialect ?? 'openai-chat';
  const chat = isChatDialect(dialect);
  const extraError = parseExtraBody(form.extraBody);

  const set = useCallback((patch: Partial<ComposerForm>) => patchForm(patch), []);
  const setModel = useCallback((model: string) => patchForm({ model }), []);

  const build = useCallback(() => {
    const f = useComposerStore.getState();
    if (!target) {
      setErrors({ model: 'No target: add one first.' });
      return null;
    }
    const r = buildFireInput(f, target.id, target.dialect);
    setErrors(r.ok ? {} : r.errors);
    return r.ok ? r.input : null;
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

  return (
    <section className="card composer" aria-label="Request composer">
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

      {/* One per row: the dialect names ("Ollama /api/generate (NDJSON)") and model ids are long. */}
      <div className="field-stack">
        <div className="field">
          <label htmlFor="dialect-select">Dialect</label>
          <select
            id="dialect-select"
            data-testid="dialect-select"
            value={form.dialect ?? ''}
            onChange={(e) => set({ dialect: (e.target.value || null) as DialectId | null })}
            title={DIALECT_LABELS[form.dialect ?? target?.dialect ?? 'openai-chat']}
          >
            <option value="">{target ? `${DIALECT_LABELS[target.dialect]} (the target's)` : '—'}</option>
            {DIALECT_IDS.map((d) => (
              <option key={d} value={d}>
                {DIALECT_LABELS[d]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label>Model</label>
          <ModelPicker target={target} value={form.model} onChange={setModel} error={errors.model} />
        </div>
      </div>

      <div className="field">
        <label>{chat ? 'Messages' : 'Prompt'}</label>
        {chat ? (
          <MessagesEditor
            messages={form.messages}
            onChange={(messages) => set({ messages })}
            error={errors.prompt}
          />
        ) : (
          <>
            <textarea
              data-testid="prompt"
              aria-label="Prompt"
              rows={6}
              value={form.prompt}
              onChange={(e) => set({ prompt: e.target.value })}
            />
            {errors.prompt && <p className="field-error">{errors.prompt}</p>}
          </>
        )}
      </div>

      <ComposerParams form={form} dialect={dialect} errors={errors} />

      <details className="sub" open={form.extraBody.trim() !== ''}>
        <summary>Extra body (JSON, merged last)</summary>
        <textarea
          className={`mono${extraError.ok ? '' : ' invalid'}`}
          data-testid="extra-body"
          aria-label="Extra body JSON"
          aria-invalid={!extraError.ok}
          rows={4}
          spellCheck={false}
          placeholder='{"top_k": 20, "repetition_penalty": 1.05}'
          value={form.extraBody}
          onChange={(e) => set({ extraBody: e.target.value })}
        />
        {!extraError.ok && <p className="field-error">{extraError.error}</p>}
      </details>

      <details className="sub" open={form.headers.length > 0}>
        <summary>Headers{form.headers.length ? ` (${form.headers.length})` : ''}</summary>
        <HeadersEditor
          idPrefix="composer"
          rows={form.headers}
          onChange={(headers) => set({ headers })}
          error={errors.headers}
        />
      </details>

      <div className="actions">
        <button
          type="button"
          className="btn primary"
          data-testid="composer-send"
          onClick={() => void send()}
          disabled={firing || !target || !extraError.ok}
          title={
            !extraError.ok
              ? `Fix the extra body first: ${extraError.error}`
              : `Send (${IS_MAC ? '⌘' : 'Ctrl'}+Enter)`
          }
        >
          {firing ? 'Sending…' : side ? 'Send to both' : 'Send'} <kbd>{IS_MAC ? '⌘↵' : 'Ctrl+↵'}</kbd>
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
          onClick={() => void copyCurl()}
          title="Copy the same request as a curl command (the API key is referenced as $TOKENSCOPE_API_KEY, never written out)"
        >
          {copied ? 'Copied ✓' : 'Copy as curl'}
        </button>
      </div>
      {targets.length > 1 && (
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
      )}
      {fireError && (
        <p className="field-error" data-testid="fire-error">
          {fireError}
        </p>
      )}
      {curl && <CurlDialog command={curl} onClose={() => setCurl(null)} />}
    </section>
  );
}
