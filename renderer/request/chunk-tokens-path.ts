/**
 * The tokens-per-chunk chart's geometry (ChunkTokensChart.tsx), pure: a step line through each
 * content chunk's token count at its arrival time, so a speculative server's accepted runs show as
 * steps above 1 (shared/stats/chunk-pattern.ts says why). One SVG path, however long the stream.
 */
import { niceTicks } from '../core/charts/ticks.ts';

export interface ChunkPlot {
  /** SVG path of the step line in the plot's pixel space. */
  path: string;
  xTicks: { x: number; label: string }[];
  yTicks: { y: number; label: string }[];
  /** The y axis' top, in tokens (an integer ≥ 2). */
  yMax: number;
}

export function chunkPlot(
  t: readonly number[],
  n: readonly number[],
  size: { width: number; height: number },
): ChunkPlot {
  const { width: w, height: h } = size;
  const t0 = t[0] ?? 0;
  const t1 = Math.max(t[t.length - 1] ?? 1, t0 + 1);
  let top = 2;
  for (const v of n) if (v > top) top = v;
  const yMax = Math.ceil(top);
  const x = (v: number) => ((v - t0) / (t1 - t0)) * w;
  const y = (v: number) => h - (v / yMax) * h;
  let path = '';
  for (let i = 0; i < t.length; i++) {
    const px = x(t[i] as number).toFixed(1);
    const py = y(n[i] as number).toFixed(1);
    // Hold the previous count until this chunk arrives, then step to its own.
    path += i === 0 ? `M${px},${py}` : `H${px}V${py}`;
  }
  const xt = niceTicks(t0, t1, 5);
  const yt = niceTicks(0, yMax, Math.min(yMax, 5));
  return {
    path,
    xTicks: xt.values.map((v) => ({ x: x(v), label: v.toFixed(xt.decimals) })),
    yTicks: yt.values.filter((v) => Number.isInteger(v)).map((v) => ({ y: y(v), label: String(v) })),
    yMax,
  };
}
