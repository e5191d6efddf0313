/**
 * Compose and fire one streaming request: target, dialect, model, prompt or chat messages,
 * sampling parameters, stream options, extra body JSON and headers — or, for embeddings and
 * rerank, their batch, query and top_n (PoolingFields). Ctrl/Cmd+Enter sends.
 */
import { useCallback } from 'react';
import type { DialectId } from '../../shared/dialects.ts';
import { isChatDialect } from '../targets/dialect-ui.ts';
import { parseExtraBody } from './fire-input.ts';
import { useAppStore, useSelectedTarget } from '../core/app-store.ts';
import { patchForm, useComposerStore } from './composer-store.ts';
import { useRequestStore } from './request-store.ts';
import { useComposerSend } from './use-composer-send.ts';
import { CurlDialog } from './CurlDialog.tsx';
import { ComposerActions, SideBySideSelect } from './ComposerActions.tsx';
import { DialectField } from './DialectField.tsx';
import { ExtraBodyField } from './ExtraBodyField.tsx';
import { PromptField } from './PromptField.tsx';
import { TargetField } from './TargetField.tsx';
import { ComposerParams } from './ComposerParams.tsx';
import { PoolingFields } from './pooling/PoolingFields.tsx';
import { isPoolingDialect } from './pooling/pooling-input.ts';
import { HeadersEditor } from '../targets/HeadersEditor.tsx';
import { ModelPicker } from '../targets/ModelPicker.tsx';

export function Composer() {
  const targets = useAppStore((s) => s.targets);
  const target = useSelectedTarget();
  const form = useComposerStore();
  const sideId = useRequestStore((s) => s.sideBySideTargetId);
  const side = targets.find((t) => t.id === sideId && t.id !== target?.id) ?? null;
  const fireError = useRequestStore((s) => s.fireError);
  const { errors, send, copyCurl, copied, curl, closeCurl } = useComposerSend(target, side);
  const dialect: DialectId = form.dialect ?? target?.dialect ?? 'openai-chat';
  const chat = isChatDialect(dialect);
  const extraError = parseExtraBody(form.extraBody);

  const setModel = useCallback((model: string) => patchForm({ model }), []);

  return (
    <section className="card composer" aria-label="Request composer">
      <TargetField targets={targets} target={target} />

      {/* One per row: the dialect names ("Ollama /api/generate (NDJSON)") and model ids are long. */}
      <div className="field-stack">
        <DialectField value={form.dialect} dialect={dialect} target={target} />
        <div className="field">
          <label>Model</label>
          <ModelPicker target={target} value={form.model} onChange={setModel} error={errors.model} />
        </div>
      </div>

      {isPoolingDialect(dialect) ? (
        <PoolingFields form={form} dialect={dialect} errors={errors} />
      ) : (
        <>
          <PromptField chat={chat} messages={form.messages} prompt={form.prompt} error={errors.prompt} />
          <ComposerParams form={form} dialect={dialect} errors={errors} />
        </>
      )}

      <ExtraBodyField value={form.extraBody} parsed={extraError} />

      <details className="sub" open={form.headers.length > 0}>
        <summary>Headers{form.headers.length ? ` (${form.headers.length})` : ''}</summary>
        <HeadersEditor
          idPrefix="composer"
          rows={form.headers}
          onChange={(headers) => patchForm({ headers })}
          error={errors.headers}
        />
      </details>

      <ComposerActions
        onSend={() => void send()}
        onCopyCurl={() => void copyCurl()}
        copied={copied}
        hasTarget={Boolean(target)}
        extraError={extraError.ok ? null : extraError.error}
        sideBySide={side !== null}
      />
      {targets.length > 1 && <SideBySideSelect targets={targets} target={target} side={side} />}
      {fireError && (
        <p className="field-error" data-testid="fire-error">
          {fireError}
        </p>
      )}
      {curl && <CurlDialog command={curl} onClose={closeCurl} />}
    </section>
  );
}
