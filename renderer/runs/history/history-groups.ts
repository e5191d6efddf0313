/**
 * The runs history as the list shows it: a sweep's step runs (files `<sweep>.stepNN.jsonl` beside
 * the sweep file, electron/runs/sweep/sweep.ts stepFileOf) gathered under their sweep, placed where its
 * newest step is, so a sweep of 13 steps is one entry among the runs, not 13.
 */
import type { RunEntry } from '../../../shared/runs-api.ts';

export type HistoryRow =
  | { kind: 'run'; run: RunEntry }
  | {
      kind: 'sweep';
      /** The sweep file's key without `.json` (what its steps' keys start with). */
      id: string;
      name: string;
      /** Its step runs, first step first. */
      runs: RunEntry[];
    };

const STEP_FILE = /^(.*)\.step(\d{2,})\.jsonl$/;

/** A step's name is "<sweep name> · <rate|concurrency> <load>": the sweep's is what precedes it. */
function sweepName(id: string, steps: readonly RunEntry[]): string {
  const named = steps.find((r) => r.name)?.name;
  const base = named?.replace(/ · (rate|concurrency) \S+$/, '');
  return base && base !== 'sweep' ? base : (id.split(/[\\/]/).pop() ?? id);
}

/** `runs` newest first (as listed); each sweep's steps become one row at its newest step's place. */
export function historyRows(runs: readonly RunEntry[]): HistoryRow[] {
  const steps = new Map<string, RunEntry[]>();
  for (const r of runs) {
    const m = STEP_FILE.exec(r.key);
    if (!m) continue;
    const list = steps.get(m[1]!) ?? [];
    list.push(r);
    steps.set(m[1]!, list);
  }
  const out: HistoryRow[] = [];
  const placed = new Set<string>();
  for (const r of runs) {
    const m = STEP_FILE.exec(r.key);
    const group = m ? steps.get(m[1]!) : undefined;
    // A lone step file is listed as the run it is.
    if (!m || !group || group.length < 2) {
      out.push({ kind: 'run', run: r });
      continue;
    }
    if (placed.has(m[1]!)) continue;
    placed.add(m[1]!);
    const ordered = [...group].sort((a, b) => a.key.localeCompare(b.key));
    out.push({ kind: 'sweep', id: m[1]!, name: sweepName(m[1]!, ordered), runs: ordered });
  }
  return out;
}
