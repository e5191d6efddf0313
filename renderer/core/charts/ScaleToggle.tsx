/**
 * The x-axis scale of a histogram or CDF: linear or log, the automatic choice marked (log when
 * the values span more than ~2 decades: histogram-bins.ts preferLogX) and switchable.
 */
import { SegmentedSwitch } from '../form/SegmentedSwitch.tsx';

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
    <SegmentedSwitch
      label="x axis scale"
      className="scale-toggle"
      testId={testId}
      value={value}
      onChange={onChange}
      segments={(['linear', 'log'] as const).map((s) => ({
        value: s,
        label: `${s === 'log' ? 'log x' : 'linear x'}${s === auto ? ' (auto)' : ''}`,
        data: { 'data-scale': s },
        title:
          s === auto
            ? `Chosen for these values${s === 'log' ? ': they span more than two decades' : ''}`
            : s === 'log'
              ? 'Log x: equal room for each decade'
              : 'Linear x: equal room for each millisecond',
      }))}
    />
  );
}
