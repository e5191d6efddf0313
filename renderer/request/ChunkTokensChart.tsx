/**
 * Tokens per chunk over one request's stream: a speculative server streams 1 + the accepted draft
 * run of each step as one chunk, so its accepted runs show as steps above 1 (docs/metrics.md
 * "Speculative decoding"). x: arrival time, ms since the request started; y: tokens in the chunk.
 * Below it, the mean of the chunks that are whole steps (first and last left out) — and whether the
 * counts are the server's (exact) or estimated, which shows one token a chunk.
 */
import { useMemo } from 'react';
import { EV_CONTENT, EV_TOKENS_EXACT } from '../../shared/request.ts';
import type { EventColumns } from '../../shared/event-columns.ts';
import { acceptanceFromChunks, tokensPerChunk } from '../../shared/stats/chunk-pattern.ts';
import { C } from '../core/charts/theme.ts';
import { chunkPlot } from './chunk-tokens-path.ts';

const M = { top: 8, right: 12, bottom: 30, left: 40 };

interface Props {
  source: EventColumns | null;
  /** Events so far: a new count redraws. */
  events: number;
  width?: number;
  height?: number;
}

export function ChunkTokensChart({ source, events, width = 520, height = 150 }: Props) {
  const view = useMemo(() => {
    if (!source || events === 0) return null;
    const k = Math.min(events, source.n);
    const cols = {
      t: source.t.subarray(0, k),
      tok: source.tokens.subarray(0, k),
      f: source.flags.subarray(0, k),
    };
    const { t, n } = tokensPerChunk(cols);
    if (t.length === 0) return null;
    let exact = true;
    for (let i = 0; i < k; i++) {
      const f = cols.f[i] as number;
      if ((f & EV_CONTENT) !== 0 && (f & EV_TOKENS_EXACT) === 0) exact = false;
    }
    return { t, n, exact, acc: acceptanceFromChunks([n]) };
  }, [source, events]);
  const pw = width - M.left - M.right;
  const ph = height - M.top - M.bottom;
  const plot = useMemo(
    () => (view ? chunkPlot(view.t, view.n, { width: pw, height: ph }) : null),
    [view, pw, ph],
  );
  if (!view || !plot) return null;
  return (
    <section className="card chunk-tokens" aria-label="Tokens per chunk" data-testid="chunk-tokens">
      <header className="card-head">
        <h3 title="Tokens each content chunk carried, at its arrival. A speculative server sends 1 + the accepted draft tokens of a step together: runs show as steps above 1.">
          Tokens per chunk
        </h3>
        <span className="muted" data-testid="chunk-tokens-mean">
          {view.acc.meanLength === null
            ? `${view.n.length} chunks`
            : `${view.n.length} chunks · ${view.acc.meanLength.toFixed(2)} tokens per step (middle chunks)`}
        </span>
      </header>
      <svg
        width={width}
        height={height}
        role="img"
        aria-label="Tokens per chunk against time since the request started"
      >
        <g transform={`translate(${M.left},${M.top})`}>
          {plot.yTicks.map((tk) => (
            <g key={`y${tk.label}`}>
              <line x1={0} x2={pw} y1={tk.y} y2={tk.y} stroke={C.grid} />
              <text x={-6} y={tk.y + 4} textAnchor="end" fill={C.tick} fontSize={11}>
                {tk.label}
              </text>
            </g>
          ))}
          {plot.xTicks.map((tk) => (
            <text key={`x${tk.label}`} x={tk.x} y={ph + 16} textAnchor="middle" fill={C.tick} fontSize={11}>
              {tk.label}
            </text>
          ))}
          <line x1={0} x2={pw} y1={ph} y2={ph} stroke={C.axis} />
          <path
            d={plot.path}
            fill="none"
            stroke={C.content}
            strokeWidth={1.5}
            data-testid="chunk-tokens-path"
          />
          <text x={pw / 2} y={ph + 28} textAnchor="middle" fill={C.muted} fontSize={11}>
            ms since the request started
          </text>
          <text
            transform={`translate(-30,${ph / 2}) rotate(-90)`}
            textAnchor="middle"
            fill={C.muted}
            fontSize={11}
          >
            tokens
          </text>
        </g>
      </svg>
      {!view.exact && (
        <p className="caption" data-testid="chunk-tokens-estimated">
          Counts estimated: the server sent no per-chunk token counts, so each chunk reads as one token (vLLM
          sends them with stream_options.continuous_usage_stats).
        </p>
      )}
    </section>
  );
}
