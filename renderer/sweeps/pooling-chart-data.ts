/**
 * The chart a sweep of a target that answers whole (embeddings, rerank) draws where a token sweep
 * draws tokens/s per user (which it has none of): input tokens per second against the offered load,
 * the work the server did in the unit it does it in (a batch's size moves it apart from req/s).
 */
import { sweepCurves } from '../../shared/runs/sweep/curves.ts';
import { sweepStreams } from '../../shared/runs/sweep/pooling.ts';
import { colorOf, emptyChart, overOf, type ChartData, type SweepSource } from './sweep-chart-data.ts';

export function inputChart(sources: readonly SweepSource[]): ChartData {
  const kind = sources[0] ? sweepCurves(sources[0].file).loadKind : 'rate';
  const out = emptyChart(kind === 'rate' ? 'offered load (req/s)' : 'concurrency', 'input tok/s');
  sources.forEach((src, i) => {
    if (sweepStreams(src.file)) return;
    const curves = sweepCurves(src.file);
    // As the load chart: a rate-inf step has no offered rate to place, another load kind no place.
    if (curves.loadKind !== kind || curves.input.points.length === 0) return;
    const points = curves.input.points;
    out.series.push({
      key: `${src.id}:input_tok_s`,
      name: `${sources.length > 1 ? `${src.label} · ` : ''}input tok/s`,
      color: colorOf(i),
      dashed: false,
      points,
    });
    out.over.push(...overOf(points));
  });
  return out;
}
