/** A labelled form field: its label, the input(s), and an error or else a hint under them. */
import { type ReactNode } from 'react';

export function Field({
  label,
  error,
  hint,
  wrap,
  children,
  title,
}: {
  label: string;
  error?: string;
  hint?: string;
  /** The hint wraps onto more lines instead of being cut off (long hints, syntax notes). */
  wrap?: boolean;
  children: ReactNode;
  title?: string;
}) {
  return (
    <div className="field" title={title}>
      <label>{label}</label>
      {children}
      {error ? (
        <p className="field-error">{error}</p>
      ) : hint ? (
        <p className={wrap ? 'field-hint wrap' : 'field-hint'}>{hint}</p>
      ) : null}
    </div>
  );
}
