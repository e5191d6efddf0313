/**
 * A multi-turn run's latency by turn (workload sessions): TTFT and E2E of turn 1, turn 2, … up to
 * BY_TURN_CAP, later turns pooled in the last row. Later turns resend the conversation so far, so
 * a server with a prefix cache answers them sooner than turn 1 — this is where that shows. Same
 * rules as the run's own statistics (successful requests only; shared/stats/summary.ts).
 */
import { summarize } from '../../stats/summary.ts';
import type { RequestOutcome } from './outcome.ts';
import type { TurnRow } from './schema.ts';
import { toMetricStats } from './summary.ts';

/** Turns shown one by one; turn BY_TURN_CAP's row holds it and every later one. @internal exported for its tests */
export const BY_TURN_CAP = 8;

/** Rows by turn, or undefined for a run without turns. `turns[k]` is outcome k's turn (undefined: none). */
export function byTurnOf(
  outcomes: readonly RequestOutcome[],
  turns: readonly (number | undefined)[],
): TurnRow[] | undefined {
  const groups = new Map<number, RequestOutcome[]>();
  outcomes.forEach((o, k) => {
    const t = turns[k];
    if (t === undefined) return;
    const key = Math.min(t, BY_TURN_CAP);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(o);
  });
  if (groups.size === 0) return undefined;
  return [...groups.keys()]
    .sort((a, b) => a - b)
    .map((turn) => {
      const g = groups.get(turn)!;
      const ok = g.filter((o) => o.ok);
      const ttft = ok.map((o) => o.ttftMs).filter((v): v is number => v !== null);
      const e2e = ok.map((o) => o.e2eMs).filter((v): v is number => v !== null);
      const inputs = ok.map((o) => o.inputTokens).filter((v): v is number => v !== null);
      return {
        turn,
        andLater: turn === BY_TURN_CAP,
        requests: g.length,
        failed: g.length - ok.length,
        meanInputTokens: inputs.length ? inputs.reduce((a, b) => a + b, 0) / inputs.length : null,
        ttft: toMetricStats(summarize(ttft)),
        e2e: toMetricStats(summarize(e2e)),
      };
    });
}

/** "1", "2", … "8+" */
export function turnLabel(r: TurnRow): string {
  return r.andLater ? `${r.turn}+` : String(r.turn);
}
