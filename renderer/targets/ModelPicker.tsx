/**
 * Model choice: the target's list (listModels: /v1/models or Ollama's /api/tags) with a refresh
 * button, and a free-text field when the list is unavailable or the model is not in it.
 */
import { useEffect, useState } from 'react';
import type { TargetView } from '../../shared/api.ts';
import { useModelList } from './use-model-list.ts';

const CUSTOM = '\u0000custom';

interface Props {
  target: TargetView | null;
  value: string;
  onChange: (model: string) => void;
  error?: string;
}

export function ModelPicker({ target, value, onChange, error }: Props) {
  const targetId = target?.id ?? null;
  const [custom, setCustom] = useState(false);
  const { list, models, load } = useModelList(target);

  useEffect(() => setCustom(false), [targetId]);

  // Once the list is in: an empty choice becomes the target's default (or the first model); a
  // name not in the list is kept as free text (the server may serve models it does not list).
  useEffect(() => {
    if (custom || models.length === 0 || models.includes(value)) return;
    if (value.trim() !== '') setCustom(true);
    else
      onChange(
        target?.defaultModel && models.includes(target.defaultModel) ? target.defaultModel : models[0]!,
      );
  }, [models, value, custom, target, onChange]);

  const showInput = custom || (models.length === 0 && !list.loading);
  return (
    <div className="model-picker">
      <div className="row gap">
        <select
          data-testid="model-select"
          aria-label="Model"
          value={showInput ? CUSTOM : value}
          onChange={(e) => {
            if (e.target.value === CUSTOM) setCustom(true);
            else {
              setCustom(false);
              onChange(e.target.value);
            }
          }}
          disabled={list.loading && models.length === 0}
        >
          {list.loading && models.length === 0 && <option value={CUSTOM}>loading models…</option>}
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
          <option value={CUSTOM}>{models.length ? 'other (type a name)…' : 'type a model name…'}</option>
        </select>
        <button
          type="button"
          className="btn icon"
          onClick={() => void load(true)}
          title="Refresh the model list"
          aria-label="Refresh models"
          disabled={list.loading || !targetId}
        >
          ↻
        </button>
      </div>
      {showInput && (
        <input
          data-testid="model-input"
          aria-label="Model name"
          placeholder="model name, e.g. meta-llama/Llama-3.1-8B-Instruct"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
        />
      )}
      {list.error && (
        <p className="field-hint wrap">Could not list models ({list.error}). Type the name instead.</p>
      )}
      {!list.error && list.source && (
        <p className="field-hint">
          {models.length} from {list.source}
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
