/**
 * Speculative decoding over a run (summary.server.specDecode, from the server's own counters or
 * SGLang's gauges): the same rows as the summary's text (shared/runs/summary/spec-decode-text.ts),
 * shown only where the server has the families, as the text does.
 */
import type { ServerSideSummary } from '../../../shared/runs/summary/server-side-schema.ts';
import { specDecodeRows } from '../../../shared/runs/summary/spec-decode-text.ts';

export function SpecDecodeNumbers({ sv }: { sv: ServerSideSummary }) {
  if (!sv.specDecode) return null;
  return (
    <dl className="sum-rows compact" data-testid="sum-spec-decode" aria-label="Speculative decoding">
      {specDecodeRows(sv.specDecode).map(([k, v]) => (
        <div className="sum-row" key={k}>
          <dt>{k.replace(/:$/, '')}</dt>
          <dd className="wrap">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
