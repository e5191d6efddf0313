import type { ReactNode } from 'react';

/** One choice of a segmented switch. */
export interface Segment<T extends string> {
  value: T;
  label: ReactNode;
  /** A tooltip saying what the choice does. */
  title?: string;
  testId?: string;
  /** `data-*` attributes of its button. */
  data?: { [k: `data-${string}`]: string };
}

/**
 * A row of buttons of which exactly one is on (a radio group: each a button with
 * role radio and aria-checked): the Runs tab's mode, a chart's x scale, a chart's metric.
 */
export function SegmentedSwitch<T extends string>({
  label,
  segments,
  value,
  onChange,
  className,
  testId,
}: {
  /** What is being chosen (aria-label). */
  label: string;
  segments: readonly Segment<T>[];
  value: T;
  onChange: (v: T) => void;
  /** Classes beside `seg`. */
  className?: string;
  testId?: string;
}) {
  return (
    <div
      className={className ? `seg ${className}` : 'seg'}
      role="radiogroup"
      aria-label={label}
      data-testid={testId}
    >
      {segments.map((s) => (
        <button
          key={s.value}
          type="button"
          role="radio"
          aria-checked={value === s.value}
          className={value === s.value ? 'on' : ''}
          data-testid={s.testId}
          {...s.data}
          title={s.title}
          onClick={() => onChange(s.value)}
        >
          {s.label}
        </button>
      ))}
    </div>
  );
}
