import type { ReactElement, ReactNode } from 'react';
import { ResponsiveContainer } from 'recharts';
import { ScaleToggle, type XScale } from './ScaleToggle.tsx';

/** `data-*` attributes for tests and for what a chart says it drew. */
type DataAttributes = { [k: `data-${string}`]: string | number | undefined };

/**
 * The frame every recharts chart sits in: an image with its label, the x scale's switch above the
 * plot where there is one (its test id: the chart's + `-scale`), the plot at a given width or the container's (ResponsiveContainer), and
 * a message over it when there is nothing to draw.
 */
export function ChartFrame({
  testId,
  label,
  width,
  height,
  empty,
  scale,
  children,
  ...data
}: {
  testId?: string;
  /** What the image shows (aria-label). */
  label: string;
  /** A fixed width in pixels; none: the container's. */
  width?: number;
  height: number;
  /** Shown over the plot when set (nothing to draw). */
  empty: ReactNode;
  /** The x scale shown and its switch; none: no switch. */
  scale?: { value: XScale; auto: XScale; onChange: (s: XScale) => void } | null | false;
  children: ReactElement;
} & DataAttributes) {
  return (
    <div className="mchart-body" data-testid={testId} {...data} role="img" aria-label={label}>
      {scale && (
        <ScaleToggle
          value={scale.value}
          auto={scale.auto}
          onChange={scale.onChange}
          testId={testId ? `${testId}-scale` : undefined}
        />
      )}
      {width ? (
        children
      ) : (
        <ResponsiveContainer width="100%" height={height}>
          {children}
        </ResponsiveContainer>
      )}
      {empty ? <div className="mchart-overlay">{empty}</div> : null}
    </div>
  );
}
