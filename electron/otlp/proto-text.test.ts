// The bundled proto text is the vendored .proto files without their comment and blank lines, and
// protobufjs resolves it into the ExportTraceServiceRequest the receiver decodes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportRequestType } from './decode.ts';
import { COMMON_PROTO, RESOURCE_PROTO, TRACE_PROTO, TRACE_SERVICE_PROTO } from './proto-text.ts';

const stripped = (file: string): string =>
  readFileSync(path.join(import.meta.dirname, 'proto', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('//'))
    .map((l) => l.trimEnd())
    .join('\n') + '\n';

describe('vendored OTLP proto text', () => {
  it('equals the vendored files without comments', () => {
    expect(COMMON_PROTO).toBe(stripped('common.proto'));
    expect(RESOURCE_PROTO).toBe(stripped('resource.proto'));
    expect(TRACE_PROTO).toBe(stripped('trace.proto'));
    expect(TRACE_SERVICE_PROTO).toBe(stripped('trace_service.proto'));
  });

  it('resolves to ExportTraceServiceRequest with its spans', () => {
    const t = exportRequestType();
    expect(t.fields.resourceSpans?.repeated).toBe(true);
    const span = t.root.lookupType('opentelemetry.proto.trace.v1.Span');
    expect(span.fields.traceId?.id).toBe(1);
    expect(span.fields.startTimeUnixNano?.type).toBe('fixed64');
  });
});
