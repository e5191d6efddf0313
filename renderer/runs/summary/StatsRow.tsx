/** A row of percentiles for the tool-call and agentic cards' tables, and their headline count. */
import type { ReactNode } from 'react';
import type { MetricStats } from '../../../shared/runs/summary/schema.ts';
import { f2, int } from './summary-format.ts';

/** A row of p50/p90/p99/max and (unless `count` is false) how many values, for the summary's small tables. */
export function StatsRow({
  name,
  title,
  v,
  testId,
  count = true,
}: {
  name: string;
  title: string;
  v: MetricStats | null;
  testId?: string;
  count?: boolean;
}) {
  return (
    <tr data-testid={testId}>
      <th scope="row" title={title}>
        {name}
      </th>
      <td>{f2(v?.median)}</td>
      <td>{f2(v?.p90)}</td>
      <td>{f2(v?.p99)}</td>
      <td>{f2(v?.max)}</td>
      {count && <td>{int(v?.count ?? 0)}</td>}
    </tr>
  );
}

export function Count({
  label,
  value,
  title,
  tone,
  testId,
}: {
  label: string;
  value: ReactNode;
  title?: string;
  tone?: 'ok' | 'bad';
  testId?: string;
}) {
  return (
    <div className={`run-count ${tone ?? ''}`} title={title}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
