/**
 * A hand-made model-mix run for tests (run-fixture.ts's requests, each naming a model): request k
 * asks for `models[k % models.length]`, and a model's times (events and phases) are the hand-made
 * record's times `slow[model]` times over (and spread a little), so its TTFT, ITL and E2E are that
 * many times longer.
 * The summary is the core's own (summarizeRunLines), with its by-model numbers.
 */
import type { RunDetail } from '../../shared/runs-api.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import { summarizeRunLines } from '../../shared/runs/summary/summarize-run.ts';
import { runDetail, runHeader, runLines } from './run-fixture.ts';

function scaled(line: RunRequestLine, k: number): RunRequestLine {
  const p = line.phases;
  const m = (v: number | null | undefined) => (typeof v === 'number' ? v * k : v);
  return {
    ...line,
    events: { ...line.events, t: line.events.t.map((t) => t * k) },
    phases: {
      ...p,
      connectedMs: m(p.connectedMs) ?? null,
      requestWrittenMs: m(p.requestWrittenMs) ?? null,
      headersMs: m(p.headersMs) ?? null,
      firstByteMs: m(p.firstByteMs) ?? null,
      endMs: m(p.endMs) ?? null,
    },
    ...(line.ttftMs != null ? { ttftMs: line.ttftMs * k } : {}),
    ...(line.e2eMs != null ? { e2eMs: line.e2eMs * k } : {}),
  };
}

export function mixRunDetail(p: {
  key: string;
  name: string;
  n: number;
  models: readonly string[];
  slow?: Readonly<Record<string, number>>;
}): RunDetail {
  const base = runHeader();
  const header = {
    ...base,
    name: p.name,
    workload: { ...base.workload, requests: p.n, models: p.models.map((name) => ({ name, weight: 1 })) },
  };
  // Within a model, request j's times are spread by 1 + (j mod 7) × 2 %: values with ties only
  // would leave no request above a quantile, too few for an interval (intervals.ts).
  const lines = runLines(p.n).map((l, k) => {
    const model = p.models[k % p.models.length]!;
    const j = Math.floor(k / p.models.length);
    return { ...scaled(l, (p.slow?.[model] ?? 1) * (1 + (j % 7) * 0.02)), model };
  });
  const summary = summarizeRunLines(header, lines, { durationS: p.n / 10 });
  const d = runDetail(1);
  return {
    ...d,
    entry: {
      ...d.entry,
      key: p.key,
      name: p.name,
      completed: summary.vllm.completed,
      failed: summary.vllm.failed,
    },
    header,
    summary,
    lines,
  };
}
