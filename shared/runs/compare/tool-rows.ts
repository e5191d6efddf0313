/**
 * A comparison's tool-call rows, from each run's `tools` (runs that offered tools:
 * shared/runs/summary/tool-calls.ts) and its agentic sessions. A run without tools has no value
 * (absent, never 0); with none on any side the rows are left out. No verdicts: no resample gives
 * these subsets an interval (the calling requests, the sessions), and a call's check is a count of
 * few — the changes are shown, the TTFT/ITL/E2E rows above carry the verdicts.
 */
import type { MetricStats } from '../summary/schema.ts';
import type { CompareRowDef } from './rows.ts';

const num = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

type Q = keyof Pick<MetricStats, 'median' | 'p99'>;

const toolMs = (
  id: string,
  label: string,
  k: 'ttftToolMs' | 'toolItlMs' | 'textItlMs',
  q: Q,
): CompareRowDef => ({
  id,
  label,
  unit: 'ms',
  better: null,
  get: (s) => num(s.tools?.[k]?.[q]),
});

const sessionMs = (
  id: string,
  label: string,
  k: 'sessionMs' | 'serverMs' | 'toolWaitMs',
  q: Q,
): CompareRowDef => ({
  id,
  label,
  unit: 'ms',
  better: null,
  get: (s) => num(s.tools?.agentic?.[k]?.[q]),
});

const pct = (v: number | null | undefined): number | null => {
  const x = num(v);
  return x === null ? null : x * 100;
};

export const TOOL_ROWS: readonly CompareRowDef[] = [
  {
    id: 'tool-calls',
    label: 'Tool calls',
    unit: 'count',
    better: null,
    group: 'Tool calls',
    get: (s) => num(s.tools?.calls),
  },
  {
    id: 'tool-finish',
    label: 'Finish reason tool_calls',
    unit: 'count',
    better: null,
    get: (s) => num(s.tools?.finishToolCalls),
  },
  {
    id: 'tool-fail-rate',
    label: 'Failed calls (bad JSON, schema, unknown tool)',
    unit: '%',
    change: 'absolute',
    better: null,
    get: (s) => pct(s.tools?.failureRate),
  },
  toolMs('tool-ttft-p50', 'First tool-call token p50', 'ttftToolMs', 'median'),
  toolMs('tool-ttft-p99', 'First tool-call token p99', 'ttftToolMs', 'p99'),
  toolMs('tool-itl-p50', 'Tool-call argument ITL p50', 'toolItlMs', 'median'),
  toolMs('tool-itl-p99', 'Tool-call argument ITL p99', 'toolItlMs', 'p99'),
  toolMs('tool-text-itl-p50', 'Text ITL p50 (requests with tools)', 'textItlMs', 'median'),
  {
    ...sessionMs('agentic-session-p50', 'Session time p50', 'sessionMs', 'median'),
    group: 'Agentic sessions',
  },
  sessionMs('agentic-session-p99', 'Session time p99', 'sessionMs', 'p99'),
  sessionMs('agentic-server-p50', 'On the server p50 (per session)', 'serverMs', 'median'),
  sessionMs('agentic-tools-p50', 'Waiting on tools p50 (per session)', 'toolWaitMs', 'median'),
  {
    id: 'agentic-tool-share',
    label: 'Share of session time on tools',
    unit: '%',
    change: 'absolute',
    better: null,
    get: (s) => pct(s.tools?.agentic?.toolWaitShare),
  },
  {
    id: 'agentic-capped',
    label: 'Sessions stopped at the step cap',
    unit: 'count',
    better: null,
    get: (s) => num(s.tools?.agentic?.cappedSessions),
  },
];
