/**
 * The chart a sweep of a target that answers whole (embeddings, rerank) draws where a token sweep
 * draws tokens/s per user (which it has none of): input tokens per second against the offered load,
 * the work the server did in the unit it does it in (a batch's size moves it apart from req/s).
 */
import type { CurvePoint } from '../../shared/runs/sweep/curves.ts';
import { sweepStreams } from '../../shared/runs/sweep/pooling.ts';
import { curveSteps, loadValue } from '../../shared/runs/sweep/step.ts';
import { colorOf, type ChartData, type SweepSource } from './sweep-chart-data.ts';

export function inputChart(sources: readonly SweepSource[]): ChartData {
  const first = sources[0] ? curveSteps(sources[0].file.steps) : [];
  const kind = first.find((s) => s.role !== 'baseline')?.load.kind ?? 'rate';
  const out: ChartData = {
    series: [],
    knees: [],
    over: [],
    limit: null,
    band: null,
    xLabel: kind === 'rate' ? 'offered load (req/s)' : 'concurrency',
    yLabel: 'input tok/s',
  };
  sources.forEach((src, i) => {
    if (sweepStreams(src.file)) return;
    const steps = curveSteps(src.file.steps);
    const loads = steps.map((s) => s.load);
    // As the load chart: a rate-inf step has no offered rate to place; another load kind no place.
    const points: CurvePoint[] = steps
      .filter((s) => s.load.kind === kind && s.load.value !== 'inf' && s.numbers.inputTokPerS !== undefined)
      .map((s) => ({
        x: loadValue(s.load, loads),
        y: s.numbers.inputTokPerS!,
        step: s.index,
        ...(s.saturation?.overSaturated ? { overSaturated: true as const } : {}),
      }))
      .sort((a, b) => a.x - b.x);
    if (points.length === 0) return;
    out.series.push({
      key: `${src.id}:input_tok_s`,
      name: `${sources.length > 1 ? `${src.label} · ` : ''}input tok/s`,
      color: colorOf(i),
      dashed: false,
      points,
    });
    out.over.push(...points.filter((p) => p.overSaturated).map((p) => ({ x: p.x, y: p.y })));
  });
  return out;
}
