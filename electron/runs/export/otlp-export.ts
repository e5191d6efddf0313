/**
 * A run file's requests sent as OTLP client spans (shared/tracing/run-spans.ts, electron/otlp/export.ts):
 * the one path behind `tokenscope export --otlp` and the run view's "Export as OTLP traces".
 */
import { randomBytes } from 'node:crypto';
import type { RunHeader, RunRequestLine } from '../../../shared/runs/file/line-schema.ts';
import { fail, ok, type Result } from '../../../shared/result.ts';
import { runSpansOf } from '../../../shared/tracing/run-spans.ts';
import { exportSpans, type ExportError } from '../../otlp/export.ts';
import type { OtlpExported } from '../../../shared/runs-api.ts';

export type { OtlpExported };

export async function exportRunOtlp(
  header: RunHeader,
  lines: readonly RunRequestLine[],
  url: string,
  version: string,
): Promise<Result<OtlpExported, ExportError | { kind: 'empty'; message: string; sent: 0 }>> {
  const built = runSpansOf(header, lines, () => randomBytes(8).toString('hex'));
  const skipped = [
    built.untraced ? `${built.untraced} sent without trace headers` : '',
    built.noClock ? `${built.noClock} without the run's wall clock (an older file)` : '',
  ].filter(Boolean);
  if (built.spans.length === 0)
    return fail({
      kind: 'empty',
      message: `no request of this run can be sent as a span${skipped.length ? `: ${skipped.join(', ')}` : ''}`,
      sent: 0,
    });
  const res = await exportSpans(url, built.spans, {
    resource: { 'service.name': 'tokenscope', 'service.version': version },
  });
  if (!res.ok) {
    const e = res.error;
    const of = e.sent ? ` (${e.sent} of ${built.spans.length} spans had been sent)` : '';
    return fail({ ...e, message: `${e.message}${of}` });
  }
  return ok({
    ...res.value,
    events: built.spans.reduce((n, s) => n + s.events.length, 0),
    untraced: built.untraced,
    noClock: built.noClock,
  });
}
