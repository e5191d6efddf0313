/** A run's state at a glance: running, imported (from vLLM/SGLang), partial, damaged, cancelled, flagged. */
import type { RunEntry } from '../../../shared/runs-api.ts';

export function RunBadges({ e }: { e: RunEntry }) {
  return (
    <span className="run-badges">
      {e.running && <span className="badge ok">running</span>}
      {e.imported && (
        <span
          className="badge"
          data-testid="badge-imported"
          title="Imported result: numbers as the tool reported them, recomputed where per-request data allows"
        >
          imported from {e.source === 'sglang' ? 'SGLang' : 'vLLM'}
        </span>
      )}
      {e.partial && !e.running && (
        <span
          className="badge warn"
          title="The run file has no summary line (the app stopped mid-run): recomputed from the requests it holds"
        >
          partial
        </span>
      )}
      {e.damage && (
        <span
          className="badge bad"
          data-testid="badge-damaged"
          title={`The run file is damaged: ${e.damage}. Its numbers were recomputed from the request lines it holds.`}
        >
          damaged
        </span>
      )}
      {e.cancelled && <span className="badge warn">cancelled</span>}
      {e.flagged && (
        <span className="badge bad" title="The client was overloaded during the run: its timings may be late">
          flagged
        </span>
      )}
    </span>
  );
}
