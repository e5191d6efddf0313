/**
 * `tokenscope export --otlp URL RUN` — a run's requests as client spans to an OTLP/HTTP traces
 * endpoint (Jaeger, Tempo, an OpenTelemetry Collector: `http://host:4318/v1/traces`), one span per
 * request in its own trace with one event per chunk (shared/tracing/run-spans.ts), so a tracing
 * backend shows the client's and the server's spans of one request in one trace.
 *
 * Exit codes: 0 sent · 1 the endpoint refused or could not be reached (what was sent before is
 * said) · 2 the run file is unreadable or has nothing to send.
 */
import { randomBytes } from 'node:crypto';
import { runSpansOf } from '../../shared/tracing/run-spans.ts';
import { readRunFile } from '../runs/files/run-file.ts';
import { exportSpans } from '../otlp/export.ts';
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
  const { header, requests } = r.value;
  const built = runSpansOf(header, requests, () => randomBytes(8).toString('hex'));
  const skipped = [
    built.untraced ? `${built.untraced} sent without trace headers` : '',
    built.noClock ? `${built.noClock} without the run's wall clock (an older file)` : '',
  ].filter(Boolean);
  if (built.spans.length === 0)
    return bad(
      `no request of ${file} can be sent as a span${skipped.length ? `: ${skipped.join(', ')}` : ''}`,
    );
  const res = await exportSpans(o.otlp, built.spans, {
    resource: { 'service.name': 'tokenscope', 'service.version': TOKENSCOPE_VERSION },
  });
  if (!res.ok)
    return bad(
      `${res.error.message}${res.error.sent ? ` (${res.error.sent} of ${built.spans.length} spans had been sent)` : ''}`,
      res.error.kind === 'url' ? 2 : 1,
    );
  if (!o.quiet) {
    const events = built.spans.reduce((n, s) => n + s.events.length, 0);
    process.stderr.write(
      `sent ${res.value.spans} spans (${events} chunk events) in ${res.value.batches} batch${res.value.batches === 1 ? '' : 'es'}` +
        (skipped.length ? `; left out: ${skipped.join(', ')}` : '') +
        '\n',
    );
  }
  return 0;
}
