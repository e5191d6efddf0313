/** Labels of log-binned histograms (shared/charts/histogram-bins.ts binValuesLog): edges and axis ticks. */

/** A bin edge in up to 3 significant digits (log bins: 1.26, 15.8, 1000). */
export function fmtEdge(v: number): string {
  if (v === 0) return '0';
  if (v >= 100) return Math.round(v).toLocaleString('en-US');
  return String(Number(v.toPrecision(3)));
}

/** Log bins' axis labels: where a decade starts (0.1, 1, 10…), or every few bins over less than two. */
export function logBinTicks(data: readonly { x0: number }[]): number[] {
  const dec = data.flatMap((d, i) => (d.x0 > 0 && Math.abs(Math.log10(d.x0) % 1) < 1e-9 ? [i] : []));
  if (dec.length >= 2) return dec;
  const every = Math.max(1, Math.ceil(data.length / 5));
  return data.flatMap((_, i) => (i % every === 0 ? [i] : []));
}
