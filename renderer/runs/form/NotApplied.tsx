import { Field } from '../../core/form/Field.tsx';
import { FieldUse } from './field-use.ts';

/** A field that does not apply: its value left out of sight, the input disabled, the note why. */
export function NotApplied({ label, use, testId }: { label: string; use: FieldUse; testId?: string }) {
  return (
    <Field label={label} hint={use.note} wrap>
      <input aria-label={label} data-testid={testId} disabled value="" placeholder="set by each step" />
    </Field>
  );
}
