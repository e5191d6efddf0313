/** A chart's card: title (definition on hover), legend with the current values, the chart, a caption. */
import type { ReactNode } from 'react';

export interface LegendItem {
  name: string;
  color: string;
  value?: string;
  /** Swatch: a line, a dashed line, a wide translucent line, a hollow dot (client points), or none (a number only). */
  kind?: 'line' | 'dashed' | 'wide' | 'dot' | 'none';
  title?: string;
}

interface Props {
  title: string;
  definition: string;
  legend: LegendItem[];
  caption?: ReactNode;
  children: ReactNode;
  testId?: string;
}

export function ChartCard({ title, definition, legend, caption, children, testId }: Props) {
  return (
    <section className="card mchart" aria-label={title} data-testid={testId ? `${testId}-card` : undefined}>
      <header className="card-head mchart-head">
        <h3 title={definition}>{title}</h3>
        <ul className="legend mchart-legend">
          {legend.map((l) => (
            <li key={l.name} title={l.title}>
              {l.kind !== 'none' && (
                <i
                  className={`sw ${l.kind === 'dot' ? 'circle' : 'mline'}${l.kind === 'dashed' || l.kind === 'wide' ? ` ${l.kind}` : ''}`}
                  style={{ borderColor: l.color }}
                />
              )}
              {l.name}
              {l.value !== undefined && <b className="mchart-value">{l.value}</b>}
            </li>
          ))}
        </ul>
      </header>
      {children}
      {caption && <p className="caption">{caption}</p>}
    </section>
  );
}
