/**
 * "Export as OTLP traces" in a run's actions (docs/tracing.md): the run's requests as client spans
 * to a traces endpoint the user names (Jaeger, Tempo, a collector), one per request in the trace it
 * sent, one event per chunk — the same path as `tokenscope export --otlp` (electron/runs/export/otlp-export.ts).
 */
import { useState } from 'react';
import type { RunEntry } from '../../../shared/runs-api.ts';
import { api } from '../../core/api.ts';
import { setRunsMessage } from '../run-store.ts';

const DEFAULT_URL = 'http://127.0.0.1:4318/v1/traces';

async function sendOtlp(key: string, url: string): Promise<boolean> {
  const r = await api.exportRunOtlp(key, url);
  if (!r.ok) {
    setRunsMessage({ tone: 'error', text: `OTLP export failed: ${r.error.message}` });
    return false;
  }
  const v = r.value;
  const left = v.untraced + v.noClock;
  setRunsMessage({
    tone: 'info',
    text: `Sent ${v.spans} spans (${v.events} chunk events) to ${url}${left ? `; ${left} requests had no trace id or wall clock and were left out` : ''}`,
  });
  return true;
}

export function OtlpExportControl({ e }: { e: RunEntry }) {
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (e.imported) return null;
  if (url === null)
    return (
      <button
        type="button"
        className="btn small"
        data-testid="run-export-otlp"
        onClick={() => setUrl(DEFAULT_URL)}
        title="Send the run's requests as OpenTelemetry spans (one per request in the trace it sent, one event per chunk) to a traces endpoint"
      >
        Export as OTLP traces
      </button>
    );
  return (
    <form
      className="row gap"
      onSubmit={(ev) => {
        ev.preventDefault();
        setBusy(true);
        void sendOtlp(e.key, url.trim()).then((sent) => {
          setBusy(false);
          if (sent) setUrl(null);
        });
      }}
    >
      <input
        aria-label="OTLP traces endpoint"
        data-testid="run-export-otlp-url"
        value={url}
        size={34}
        onChange={(ev) => setUrl(ev.target.value)}
      />
      <button type="submit" className="btn small primary" disabled={busy} data-testid="run-export-otlp-send">
        {busy ? 'Sending…' : 'Send'}
      </button>
      <button type="button" className="btn small ghost" onClick={() => setUrl(null)}>
        Cancel
      </button>
    </form>
  );
}
