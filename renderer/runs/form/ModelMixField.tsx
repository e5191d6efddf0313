/**
 * A model mix (workload `models`, shared/runs/workload/models.ts): requests spread over several
 * model names — models, or LoRA adapters that vLLM serves as names of their own — by weight, drawn
 * from the seed. Typed as "name=weight, name=weight"; the summary then breaks numbers down by model.
 */
import { Field } from '../../core/form/Field.tsx';
import { setDraft } from '../run-store.ts';
import type { WorkloadDraft } from './workload-draft.ts';

export function ModelMixField({ d, errors }: { d: WorkloadDraft; errors: Map<string, string> }) {
  return (
    <details className="sub" open={d.models.trim() !== '' || undefined}>
      <summary>Model mix</summary>
      <Field
        label="Models or adapters (name=weight, …)"
        error={errors.get('models')}
        hint="each request goes to one of these names, drawn by weight from the seed (the target's model is then not sent); empty: the target's model"
      >
        <textarea
          className="mono"
          aria-label="Model mix"
          data-testid="run-model-mix"
          rows={2}
          spellCheck={false}
          placeholder="llama-8b=3, my-lora=1"
          value={d.models}
          aria-invalid={errors.has('models') || undefined}
          onChange={(e) => setDraft({ models: e.target.value })}
        />
      </Field>
    </details>
  );
}
