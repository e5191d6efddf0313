/** A checkbox and its text on one row (`label.check`), its title the row's tooltip. */
import type { ReactNode } from 'react';

export function CheckRow({
  checked,
  onChange,
  title,
  testId,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  title?: string;
  /** The checkbox's data-testid. */
  testId?: string;
  children: ReactNode;
}) {
  return (
    <label className="check" title={title}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />{' '}
      {children}
    </label>
  );
}
