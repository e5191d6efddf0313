import { DIALECT_IDS, DIALECT_LABELS, type DialectId } from '../../shared/dialects.ts';
import { movesSecrets, type TargetErrors, type TargetForm } from './target-input.ts';
import { originOf } from '../../shared/origin.ts';
import type { TargetView } from '../../shared/api.ts';
import { Field } from '../core/form/Field.tsx';

/** Name, base URL (and what becomes of the key when it moves to another server), dialect and default model. */
export function IdentityFields({
  form,
  set,
  errors,
  existing,
}: {
  form: TargetForm;
  set: (patch: Partial<TargetForm>) => void;
  errors: TargetErrors;
  existing: TargetView | undefined;
}) {
  return (
    <>
      <Field label="Name" id="te-name" error={errors.name}>
        <input
          data-testid="target-name"
          value={form.name}
          onChange={(e) => set({ name: e.target.value })}
          autoFocus
          placeholder="vLLM on gpu-box"
        />
      </Field>
      <Field
        label="Base URL"
        id="te-url"
        hint="The server root (the dialect adds its path), or a full endpoint URL."
        error={errors.baseUrl}
        keepHint
        after={
          existing &&
          movesSecrets(form, existing) && (
            <fieldset className="key-move" data-testid="target-key-move">
              <legend>
                This URL points to another server ({originOf(form.baseUrl)}). Its stored API key
                {existing.secretHeaderNames?.length ? ' and secret headers' : ''} were for{' '}
                {originOf(existing.baseUrl)}:
              </legend>
              <label className="check">
                <input
                  type="radio"
                  name="te-key-move"
                  data-testid="target-key-move-keep"
                  checked={form.keepSecretsOnMove === true}
                  onChange={() => set({ keepSecretsOnMove: true })}
                />{' '}
                keep them for the new server
              </label>
              <label className="check">
                <input
                  type="radio"
                  name="te-key-move"
                  data-testid="target-key-move-drop"
                  checked={form.keepSecretsOnMove === false}
                  onChange={() => set({ keepSecretsOnMove: false })}
                />{' '}
                remove them
              </label>
              {errors.keepSecretsOnMove && <p className="field-error">{errors.keepSecretsOnMove}</p>}
            </fieldset>
          )
        }
      >
        <input
          data-testid="target-url"
          className="mono"
          value={form.baseUrl}
          onChange={(e) => set({ baseUrl: e.target.value })}
          spellCheck={false}
        />
      </Field>
      <div className="field-pair">
        <div className="field">
          <label htmlFor="te-dialect">Dialect</label>
          <select
            id="te-dialect"
            value={form.dialect}
            onChange={(e) => set({ dialect: e.target.value as DialectId })}
          >
            {DIALECT_IDS.map((d) => (
              <option key={d} value={d}>
                {DIALECT_LABELS[d]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="te-model">Default model</label>
          <input
            id="te-model"
            value={form.defaultModel}
            onChange={(e) => set({ defaultModel: e.target.value })}
            placeholder="optional"
            spellCheck={false}
          />
        </div>
      </div>
    </>
  );
}
