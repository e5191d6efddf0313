/**
 * `tokenscope export --otlp URL RUN` — a run's requests as client spans to an OTLP/HTTP traces
 * endpoint (Jaeger, Tempo, an OpenTelemetry Collector: `http://host:4318/v1/traces`), one span per
 * request in its own trace with one event per chunk (shared/tracing/run-spans.ts), so a tracing
 * backend shows the client's and the server's spans of one request in one trace.
 *
 * Exit codes: 0 sent · 1 the endpoint refused or could not be reached (what was sent before is
 * said) · 2 the run file is unreadable or has nothing to send, or the URL is not http(s).
 */
import { readRunFile } from '../runs/files/run-file.ts';
import { exportRunOtlp } from '../runs/export/otlp-export.ts';
import { TOKENSCOPE_VERSION } from '../platform/build-info.ts';

export interface ExportOtlpCliOptions {
  otlp: string;
  quiet?: boolean;
}

export async function runExportOtlp(file: string, o: ExportOtlpCliOptions): Promise<number> {
  const bad = (msg: string, code = 2): number => {
    process.stderr.write(`error: ${msg}\n`);
    return code;
  };
  const r = await readRunFile(file);
  if (!r.ok) return bad(r.error);
  const res = await exportRunOtlp(r.value.header, r.value.requests, o.otlp, TOKENSCOPE_VERSION);
  if (!res.ok)
    return bad(
      res.error.kind === 'empty' ? `${file}: ${res.error.message}` : res.error.message,
      res.error.kind === 'refused' || res.error.kind === 'network' ? 1 : 2,
    );
  const v = res.value;
  if (!o.quiet) {
    const skipped = [
      v.untraced ? `${v.untraced} sent without trace headers` : '',
      v.noClock ? `${v.noClock} without the run's wall clock (an older file)` : '',
    ].filter(Boolean);
    process.stderr.write(
      `sent ${v.spans} spans (${v.events} chunk events) in ${v.batches} batch${v.batches === 1 ? '' : 'es'}` +
        (skipped.length ? `; left out: ${skipped.join(', ')}` : '') +
        '\n',
    );
  }
  return 0;
}
