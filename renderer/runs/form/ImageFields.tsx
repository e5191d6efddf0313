/** The run form's images: per request and their size (workload `images`; docs/load.md "Images in prompts"). */
import { Field } from '../../core/form/Field.tsx';
import { Num } from './Num.tsx';
import type { WorkloadDraft } from './workload-draft.ts';

export function ImageFields({ d, errors }: { d: WorkloadDraft; errors: Map<string, string> }) {
  const on = d.imageCount.trim() !== '';
  return (
    <div className="field-pair">
      <Field
        label="Images per request"
        error={errors.get('imageCount')}
        hint={
          on
            ? 'seeded PNGs, sent as image_url / image blocks (openai-chat, anthropic-messages)'
            : 'empty: none'
        }
        wrap
      >
        <Num
          k="imageCount"
          label="Images per request"
          errors={errors}
          placeholder="none"
          testId="run-image-count"
        />
      </Field>
      {on && (
        <Field label="Image size (px)" error={errors.get('imageWidth') ?? errors.get('imageHeight')}>
          <span className="inline-pair">
            <Num k="imageWidth" label="Image width" errors={errors} testId="run-image-width" />
            ×
            <Num k="imageHeight" label="Image height" errors={errors} testId="run-image-height" />
          </span>
        </Field>
      )}
    </div>
  );
}
