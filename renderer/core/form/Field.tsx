/**
 * A labelled form field: its label, the input(s), and an error or else a hint under them — or,
 * with `keepHint`, the hint and then the error. Given the control's `id`, the label points to it
 * and the control is described by what is shown under it (aria-describedby: hint, error).
 */
import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';

export function Field({
  label,
  error,
  hint,
  wrap,
  keepHint,
  id,
  after,
  children,
  title,
}: {
  label: string;
  error?: string;
  hint?: string;
  /** The hint wraps onto more lines instead of being cut off (long hints, syntax notes). */
  wrap?: boolean;
  /** The hint stays under the control when there is an error (the error follows it). */
  keepHint?: boolean;
  /** The id given to the control (the one child): the label's target, and the hint's and error's prefix. */
  id?: string;
  /** What follows the hint and the error inside the field. */
  after?: ReactNode;
  children: ReactNode;
  title?: string;
}) {
  const showHint = Boolean(hint) && (!error || keepHint === true);
  const hintId = id && showHint ? `${id}-hint` : undefined;
  const errorId = id && error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const control =
    id && isValidElement(children)
      ? cloneElement(children as ReactElement<{ id?: string; 'aria-describedby'?: string }>, {
          id,
          'aria-describedby': describedBy,
        })
      : children;
  return (
    <div className="field" title={title}>
      <label htmlFor={id}>{label}</label>
      {control}
      {showHint && (
        <p id={hintId} className={wrap ? 'field-hint wrap' : 'field-hint'}>
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
      {after}
    </div>
  );
}
