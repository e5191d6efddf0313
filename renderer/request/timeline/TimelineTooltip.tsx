/** The timeline's hover card: exact values of one event, read from the live columns. */
import { EV_CONTENT, EV_TOKENS_EXACT } from '../../../shared/request.ts';
import { showText } from '../../../shared/format.ts';
import { flagNames, tokenLabel } from './event-kind.ts';
import type { LiveColumns } from '../columns.ts';

interface Props {
  cols: LiveColumns;
  index: number;
  x: number;
  y: number;
  width: number;
  laneLabel: string;
}

function prevContent(cols: Pick<LiveColumns, 'flags'>, index: number): number {
  for (let j = index - 1; j >= 0; j--) if (cols.flags[j]! & EV_CONTENT) return j;
  return -1;
}

export function TimelineTooltip({ cols, index, x, y, width, laneLabel }: Props) {
  if (index < 0 || index >= cols.n) return null;
  const t = cols.t[index]!;
  const f = cols.flags[index]!;
  const k = cols.tokens[index]!;
  const gap = index > 0 ? t - cols.t[index - 1]! : null;
  const pc = f & EV_CONTENT ? prevContent(cols, index) : -1;
  const itl = pc >= 0 ? t - cols.t[pc]! : null;
  const left = x + 260 > width ? Math.max(0, x - 270) : x + 14;
  return (
    <div className="tooltip" style={{ left, top: Math.max(0, y - 10) }} role="tooltip">
      <div className="tooltip-title">
        {laneLabel && <span className="tag">{laneLabel}</span>} event #{index} · {flagNames(f).join(', ')}
      </div>
      <table>
        <tbody>
          <tr>
            <th>arrival</th>
            <td>{t.toFixed(2)} ms</td>
          </tr>
          <tr>
            <th>gap to previous</th>
            <td>{gap === null ? '—' : `${gap.toFixed(2)} ms`}</td>
          </tr>
          {f & EV_CONTENT ? (
            <tr>
              <th>ITL (per chunk)</th>
              <td>{itl === null ? 'first token (TTFT)' : `${itl.toFixed(2)} ms`}</td>
            </tr>
          ) : null}
          <tr>
            <th>tokens</th>
            <td>
              {tokenLabel(k, f)}{' '}
              {f & EV_CONTENT ? (f & EV_TOKENS_EXACT ? '(exact, from the server)' : '(estimated)') : ''}
            </td>
          </tr>
          <tr>
            <th>socket read</th>
            <td>
              #{cols.read[index]} · {cols.size[index]} B
            </td>
          </tr>
          <tr>
            <th>text</th>
            <td className="mono">{showText(cols.text[index] ?? '', 80)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
