import { type TargetErrors, type TargetForm } from './target-input.ts';
import type { TargetView } from '../../shared/api.ts';
import { HeadersEditor } from './HeadersEditor.tsx';
import { apiKeyHint } from './dialect-ui.ts';
import { CheckRow } from '../core/form/CheckRow.tsx';

/** The API key (write-only) and the extra headers, secret or not. */
export function AuthFields({
  form,
  set,
  errors,
  existing,
  secretsPersisted,
}: {
  form: TargetForm;
  set: (patch: Partial<TargetForm>) => void;
  errors: TargetErrors;
  existing: TargetView | undefined;
  secretsPersisted: boolean;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor="te-key">API key</label>
        <input
          id="te-key"
          type="password"
          autoComplete="off"
          data-testid="target-api-key"
          value={form.apiKey}
          onChange={(e) => set({ apiKey: e.target.value, clearKey: false })}
          placeholder={existing?.hasApiKey && !form.clearKey ? 'key stored — type to replace' : 'none'}
        />
        <div className="row gap">
          {existing?.hasApiKey && (
            <>
              <span className="badge ok" data-testid="target-key-stored">
                {form.clearKey ? 'key will be removed' : 'key stored'}
              </span>
              <CheckRow
                checked={form.clearKey}
                onChange={(checked) => set({ clearKey: checked, apiKey: '' })}
              >
                remove stored key
              </CheckRow>
            </>
          )}
        </div>
        <p className="field-hint">
          {apiKeyHint(form.dialect)} Write-only: it stays in the core
          {secretsPersisted
            ? ', encrypted at rest'
            : ' (in memory only: no OS encryption available here)'}{' '}
          and never reaches run files, exports or logs.
        </p>
      </div>
      <div className="field">
        <label>Headers</label>
        <HeadersEditor
          idPrefix="target"
          rows={form.headers}
          onChange={(headers) => set({ headers })}
          error={errors.headers}
          secrets
        />
        <p className="field-hint">
          Mark a header secret (a token, a session) to keep its value like the API key: never shown again,
          never in Copy as curl. Headers named like one (…Key, …Token, Cookie) are kept secret anyway.
        </p>
      </div>
    </>
  );
}
