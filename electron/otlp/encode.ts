/**
 * Encodes client spans (shared/tracing/run-spans.ts) as an OTLP `ExportTraceServiceRequest` in
 * protobuf with protobufjs over the vendored definitions (decode.ts `exportRequestType`, the same
 * types the receiver decodes with). Timestamps are fixed64 nanoseconds given as decimal strings, so
 * the recorded microseconds arrive exactly (the OpenTelemetry JS SDK takes times as float ms or
 * HrTime and would round through a double).
 */
import type { ExportSpan } from '../../shared/tracing/run-spans.ts';
import type { SpanAttributeValue } from '../../shared/tracing/spans.ts';
import { exportRequestType } from './decode.ts';

const hexBytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));

function anyValue(v: SpanAttributeValue): Record<string, unknown> {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
}

const keyValues = (a: Record<string, SpanAttributeValue>) =>
  Object.entries(a).map(([key, v]) => ({ key, value: anyValue(v) }));

export function encodeSpans(
  spans: readonly ExportSpan[],
  resource: Record<string, SpanAttributeValue>,
): Uint8Array {
  const t = exportRequestType();
  const msg = t.fromObject({
    resourceSpans: [
      {
        resource: { attributes: keyValues(resource) },
        scopeSpans: [
          {
            scope: { name: 'tokenscope' },
            spans: spans.map((s) => ({
              traceId: hexBytes(s.traceId),
              spanId: hexBytes(s.spanId),
              name: s.name,
              kind: s.kind,
              startTimeUnixNano: s.startNs.toString(),
              endTimeUnixNano: s.endNs.toString(),
              attributes: keyValues(s.attributes),
              events: s.events.map((e) => ({
                timeUnixNano: e.timeNs.toString(),
                name: e.name,
                attributes: keyValues(e.attributes),
              })),
              status: s.status,
            })),
          },
        ],
      },
    ],
  });
  return t.encode(msg).finish();
}
