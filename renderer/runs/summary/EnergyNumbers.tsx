/**
 * GPU energy over a run (summary.server.energy, from the target's dcgm-exporter): joules per output
 * token, total joules, mean power, how the joules were had and over how many GPUs; or why none.
 */
import type { ServerSideSummary } from '../../../shared/runs/summary/server-side-schema.ts';
import { ENERGY_METHOD } from '../../../shared/runs/summary/text.ts';
import { fmtCompact } from '../../core/format.ts';

/** Joules: "0.352 J", "41.7 J", "1,234 J", "12.3 kJ", "4.56 MJ". @internal exported for its tests */
export function fmtJoules(j: number | null): string {
  if (j === null || !Number.isFinite(j)) return '—';
  const a = Math.abs(j);
  if (a >= 1e6) return `${+(j / 1e6).toPrecision(3)} MJ`;
  if (a >= 1e4) return `${+(j / 1e3).toPrecision(3)} kJ`;
  if (a >= 1000) return `${Math.round(j).toLocaleString('en-US')} J`;
  if (a === 0) return '0 J';
  return `${+j.toPrecision(3)} J`;
}

const s1 = (ms: number) => (ms / 1000).toFixed(1);

/** The energy rows under the server's numbers; nothing when the target lists no telemetry. */
export function EnergyNumbers({ sv }: { sv: ServerSideSummary }) {
  if (sv.energy === undefined) return null;
  const e = sv.energy;
  if (e === null) {
    const failed = (sv.telemetry ?? []).find((t) => t.error !== null);
    return (
      <p className="caption" data-testid="sum-energy-none">
        No GPU energy for this run:{' '}
        {failed ? `${failed.url}: ${failed.error}` : 'its telemetry endpoints gave no two GPU readings'}.
      </p>
    );
  }
  const gpus = `${e.gpus} GPU${e.gpus === 1 ? '' : 's'}`;
  return (
    <dl
      className="sum-rows compact"
      data-testid="sum-energy"
      aria-label="GPU energy"
      title={`Every GPU of the target, from ${s1(e.windowMs.fromMs)} s to ${s1(e.windowMs.toMs)} s of the run (the telemetry scrapes around it)`}
    >
      <div className="sum-row">
        <dt>Energy per output token</dt>
        <dd data-testid="sum-energy-per-token">
          {fmtJoules(e.joulesPerToken)}
          {e.outputTokens !== null && (
            <span className="unit"> over {e.outputTokens.toLocaleString('en-US')} tokens</span>
          )}
        </dd>
      </div>
      <div className="sum-row">
        <dt>GPU energy</dt>
        <dd data-testid="sum-energy-total">
          {fmtJoules(e.joules)}
          <span className="unit"> · {gpus}</span>
        </dd>
      </div>
      <div className="sum-row">
        <dt>Mean GPU power</dt>
        <dd data-testid="sum-energy-power">
          {e.meanPowerW === null ? '—' : `${fmtCompact(e.meanPowerW)} W`}
          <span className="unit"> all GPUs together</span>
        </dd>
      </div>
      <div className="sum-row">
        <dt>Measured by</dt>
        <dd data-testid="sum-energy-method" className="wrap">
          {ENERGY_METHOD[e.method]}
        </dd>
      </div>
    </dl>
  );
}
