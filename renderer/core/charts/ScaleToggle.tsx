/**
 * The x-axis scale of a histogram or CDF: linear or log, the automatic choice marked (log when
 * the values span more than ~2 decades: histogram-bins.ts preferLogX) and switchable.
 */
export type XScale = 'linear' | 'log';

export function ScaleToggle({
  value,
  auto,
  onChange,
  testId,
}: {
  value: XScale;
  /** The scale chosen for these values when nobody picked one. */
  auto: XScale;
  onChange: (s: XScale) => void;
  testId?: string;
}) {
  return (
    <div className="seg scale-toggle" role="radiogroup" aria-label="x axis scale" data-testid={testId}>
      {(['linear', 'log'] as const).map((s) => (
        <button
          key={s}
          type="button"
          role="radio"
          aria-checked={value === s}
          className={value === s ? 'on' : ''}
          data-scale={s}
          title={
            s === auto
              ? `Chosen for these values${s === 'log' ? ': they span more than two decades' : ''}`
              : s === 'log'
                ? 'Log x: equal room for each decade'
                : 'Linear x: equal room for each millisecond'
          }
          onClick={() => onChange(s)}
        >
          {s === 'log' ? 'log x' : 'linear x'}
          {s === auto ? ' (auto)' : ''}
        </button>
      ))}
    </div>
  );
}
