/**
 * One request's server phases under its chunk arrivals (phase-bands.ts lays them out): the chunks
 * as they reached the client, then send → pre-queue → queue → prefill → return as bands, the x axis
 * in ms since the client sent the request; the TTFT decomposition beside it as numbers, each part
 * saying whether it was measured or derived. Five bands and a few ticks: SVG, no canvas needed.
 */
import type { ServerPhases } from '../../../shared/tracing/server-phases.ts';
import type { TtftParts } from '../../../shared/tracing/ttft-parts.ts';
import { C } from '../../core/charts/theme.ts';
import { formatTick, niceTicks } from '../../core/charts/ticks.ts';
import { phaseLayout, type BandKey } from './phase-bands.ts';

const BAND_COLOR: Record<BandKey, string> = {
  send: '#8b95a7',
  preQueue: '#b48cff',
  queue: '#ffb020',
  prefill: '#f07cc0',
  return: '#6b7587',
  outside: 'rgba(139, 149, 167, 0.45)',
};

const M = { left: 64, right: 16, top: 8 };
const ROW_H = 22;
const fmt = (v: number): string => v.toFixed(2);

export function PhaseBands({
  parts,
  server,
  chunkTimes,
  width = 760,
}: {
  parts: TtftParts;
  server: ServerPhases;
  chunkTimes: readonly number[];
  width?: number;
}) {
  const l = phaseLayout(parts, server, chunkTimes);
  const plotW = width - M.left - M.right;
  const x = (ms: number) => M.left + (Math.max(0, Math.min(ms, l.xMax)) / l.xMax) * plotW;
  const yClient = M.top;
  const yServer = M.top + ROW_H + 10;
  const yAxis = yServer + ROW_H + 6;
  const h = yAxis + 34;
  const ticks = niceTicks(0, l.xMax, 8);
  return (
    <figure className="phase-bands" data-testid="phase-bands">
      <svg width={width} height={h} role="img" aria-label="Server phases under the chunk arrivals">
        <rect x={M.left} y={yClient} width={plotW} height={yAxis - yClient} fill={C.plot} />
        {ticks.values.map((t) => (
          <line key={t} x1={x(t)} x2={x(t)} y1={yClient} y2={yAxis} stroke={C.grid} />
        ))}
        <text x={M.left - 8} y={yClient + 15} fill={C.text} fontSize={11} textAnchor="end">
          client
        </text>
        <text x={M.left - 8} y={yServer + 15} fill={C.text} fontSize={11} textAnchor="end">
          server
        </text>
        <rect x={x(0)} y={yClient + 9} width={x(l.clientTtftMs) - x(0)} height={4} fill={C.laneWait} />
        {l.chunks.map((t, i) => (
          <line
            key={i}
            x1={x(t)}
            x2={x(t)}
            y1={yClient + 2}
            y2={yClient + ROW_H - 2}
            stroke={C.content}
            strokeWidth={2}
          >
            <title>{`chunk ${i + 1} at ${fmt(t)} ms`}</title>
          </line>
        ))}
        <line
          x1={x(l.clientTtftMs)}
          x2={x(l.clientTtftMs)}
          y1={yClient}
          y2={yServer + ROW_H}
          stroke={C.ttft}
          strokeDasharray="3 2"
        />
        {l.bands.map((b, i) => {
          const w = Math.max(1, x(b.x1) - x(b.x0));
          return (
            <g key={i}>
              <rect
                x={x(b.x0)}
                y={yServer}
                width={w}
                height={ROW_H}
                fill={BAND_COLOR[b.key]}
                stroke={b.key === 'outside' ? C.tick : 'none'}
                strokeDasharray={b.key === 'outside' ? '3 2' : undefined}
              >
                <title>{`${b.label}: ${fmt(b.ms)} ms, ${b.how}`}</title>
              </rect>
              {w > 48 && (
                <text x={x(b.x0) + w / 2} y={yServer + 15} fill={C.bg} fontSize={11} textAnchor="middle">
                  {b.label}
                </text>
              )}
            </g>
          );
        })}
        {l.arrivalMs !== null && (
          <text x={x(l.arrivalMs)} y={yServer - 2} fill={C.muted} fontSize={10} textAnchor="middle">
            arrival
          </text>
        )}
        <line x1={M.left} x2={M.left + plotW} y1={yAxis} y2={yAxis} stroke={C.axis} />
        {ticks.values.map((t) => (
          <text key={t} x={x(t)} y={yAxis + 13} fill={C.tick} fontSize={10} textAnchor="middle">
            {formatTick(t, ticks.decimals)}
          </text>
        ))}
        <text x={M.left + plotW / 2} y={yAxis + 28} fill={C.muted} fontSize={11} textAnchor="middle">
          ms since the client sent the request (dashed: first token at the client)
        </text>
      </svg>
      <PhaseLegend sharedClock={l.sharedClock} />
      <TtftPartsTable parts={parts} serverTtftMs={server.ttftMs} />
    </figure>
  );
}

const LEGEND: [BandKey, string, string][] = [
  ['send', 'send', 'derived'],
  ['preQueue', 'pre-queue', 'derived'],
  ['queue', 'queue', 'measured'],
  ['prefill', 'prefill', 'measured'],
  ['return', 'return', 'derived'],
];

/** What each colour is, and which parts a clock measured. */
function PhaseLegend({ sharedClock }: { sharedClock: boolean }) {
  const items = sharedClock
    ? LEGEND
    : ([['outside', 'send + return (not split)', 'derived'], ...LEGEND.slice(1, 4)] as [
        BandKey,
        string,
        string,
      ][]);
  return (
    <figcaption className="phase-legend">
      <span className="legend-row">
        <span>
          <span className="sw block" style={{ background: C.content }} /> chunk arrivals
        </span>
        {items.map(([k, label, how]) => (
          <span key={k}>
            <span className="sw block" style={{ background: BAND_COLOR[k] }} /> {label}{' '}
            <em className="muted">({how})</em>
          </span>
        ))}
      </span>
      <span className="muted">
        Measured: the client TTFT (client clock), queue and prefill (the server&apos;s span). Derived:
        pre-queue (server TTFT − queue − prefill);{' '}
        {sharedClock
          ? 'send and return from the span start against the client send — valid because client and server share a clock (same machine).'
          : 'send and return need a shared clock (client and server on one machine): across machines only their sum is known, drawn undivided.'}
      </span>
    </figcaption>
  );
}

/** The decomposition as numbers, each part with how it is known. */
function TtftPartsTable({ parts: p, serverTtftMs }: { parts: TtftParts; serverTtftMs: number | null }) {
  const rows: [BandKey | null, string, number | null, string][] = p.sharedClock
    ? [
        ['send', 'client send + network', p.sendMs, 'derived: span start − client send (shared clock)'],
        ['preQueue', 'pre-queue (API server)', p.preQueueMs, 'derived: server TTFT − queue − prefill'],
        ['queue', 'queue', p.queueMs, "measured: the server's span"],
        ['prefill', 'prefill', p.prefillMs, "measured: the server's span"],
        ['return', 'flush + network', p.returnMs, 'derived: client TTFT − send − server TTFT (shared clock)'],
      ]
    : [
        ['outside', 'send + return (not split)', p.outsideServerMs, 'derived: client TTFT − server TTFT'],
        ['preQueue', 'pre-queue (API server)', p.preQueueMs, 'derived: server TTFT − queue − prefill'],
        ['queue', 'queue', p.queueMs, "measured: the server's span"],
        ['prefill', 'prefill', p.prefillMs, "measured: the server's span"],
      ];
  return (
    <table className="run-table num phase-parts" data-testid="ttft-parts">
      <thead>
        <tr>
          <th>part</th>
          <th>ms</th>
          <th className="how">how it is known</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([k, label, v, how]) => (
          <tr key={label}>
            <th scope="row">
              {k && <span className="sw block" style={{ background: BAND_COLOR[k] }} />} {label}
            </th>
            <td>{v === null ? '—' : fmt(v)}</td>
            <td className="how">{how}</td>
          </tr>
        ))}
        <tr className="total">
          <th scope="row">client TTFT (= the sum)</th>
          <td>{fmt(p.clientTtftMs)}</td>
          <td className="how">
            measured: the client&apos;s clock
            {serverTtftMs !== null ? ` · server TTFT ${fmt(serverTtftMs)} ms (its span)` : ''}
          </td>
        </tr>
      </tbody>
    </table>
  );
}
