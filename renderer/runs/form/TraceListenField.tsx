/**
 * The run form's "listen for server traces" (docs/tracing.md): the run opens an OTLP/HTTP receiver
 * on this port (loopback) for its duration, and a server that exports its spans there — vLLM with
 * `--otlp-traces-endpoint http://127.0.0.1:PORT/v1/traces` — gets its queue, prefill and decode
 * joined to each request (the summary's server phases).
 */
import { setDraft } from '../run-store.ts';
import type { WorkloadDraft } from './workload-draft.ts';
import { Field } from '../../core/form/Field.tsx';
import { Num } from './Num.tsx';

export function TraceListenField({ d, errors }: { d: WorkloadDraft; errors: Map<string, string> }) {
  return (
    <details className="sub" open={d.otlpListen || errors.has('otlpPort') || undefined}>
      <summary>Server traces (OTLP)</summary>
      <label
        className="check"
        title="Open an OTLP/HTTP trace receiver (POST /v1/traces, protobuf or JSON) on 127.0.0.1 for this run and join the server's spans to the requests by trace id"
      >
        <input
          type="checkbox"
          data-testid="run-otlp-listen"
          checked={d.otlpListen}
          onChange={(e) => setDraft({ otlpListen: e.target.checked })}
        />{' '}
        listen for server traces on port
      </label>
      {d.otlpListen && (
        <Field
          label="Port"
          error={errors.get('otlpPort')}
          hint={`point the server here: --otlp-traces-endpoint http://127.0.0.1:${d.otlpPort.trim() || 'PORT'}/v1/traces`}
        >
          <Num k="otlpPort" label="Trace receiver port" errors={errors} testId="run-otlp-port" />
        </Field>
      )}
    </details>
  );
}
