// The receiver against the official OpenTelemetry JS exporters (protobuf and JSON, over real HTTP
// on loopback), and against hostile bodies: every one a 400 with its count, the server still up.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import type { OtlpSpan } from '../../shared/tracing/spans.ts';
import { exportRequestType } from './decode.ts';
import { startOtlpReceiver, type OtlpReceiver } from './receiver.ts';

type ExporterConfig = NonNullable<ConstructorParameters<typeof ProtoExporter>[0]>;
let receiver: OtlpReceiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

async function exportOne(kind: 'proto' | 'json', url: string, compression: 'gzip' | 'none'): Promise<void> {
  // The exporters' enum of encodings: its values are the strings.
  const config = { url, compression: compression as ExporterConfig['compression'] };
  const exporter = kind === 'json' ? new JsonExporter(config) : new ProtoExporter(config);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'vllm' }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const parent = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: 1,
    isRemote: true,
  });
  const span = provider.getTracer('t').startSpan(
    'llm_request',
    {
      kind: SpanKind.SERVER,
      startTime: 1_764_000_000_123.456,
      attributes: {
        'gen_ai.latency.time_in_queue': 0.0125,
        'gen_ai.usage.prompt_tokens': 128,
        'gen_ai.request.id': 'chatcmpl-1',
        flag: true,
      },
    },
    parent,
  );
  span.end(1_764_000_000_623.789);
  await provider.forceFlush();
  await provider.shutdown();
}

describe('OTLP receiver', () => {
  for (const kind of ['proto', 'json'] as const)
    for (const compression of ['none', 'gzip'] as const)
      it(`decodes the official ${kind} exporter's spans (${compression})`, async () => {
        const got: OtlpSpan[] = [];
        receiver = await startOtlpReceiver({ port: 0, onSpans: (s) => got.push(...s) });
        await exportOne(kind, receiver.url, compression);
        expect(got).toHaveLength(1);
        const s = got[0]!;
        expect(s.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
        expect(s.parentSpanId).toBe('b7ad6b7169203331');
        expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
        expect(s.name).toBe('llm_request');
        expect(s.kind).toBe(2);
        expect(s.serviceName).toBe('vllm');
        expect(s.startWallMs).toBeCloseTo(1_764_000_000_123.456, 3);
        expect(s.endWallMs).toBeCloseTo(1_764_000_000_623.789, 3);
        expect(s.attributes).toEqual({
          'gen_ai.latency.time_in_queue': 0.0125,
          'gen_ai.usage.prompt_tokens': 128,
          'gen_ai.request.id': 'chatcmpl-1',
          flag: true,
        });
        expect(receiver.stats()).toMatchObject({ exports: 1, spans: 1, rejected: {} });
      });

  it('refuses malformed, oversized and hostile bodies with 400s and counts them, and stays up', async () => {
    const got: OtlpSpan[] = [];
    receiver = await startOtlpReceiver({ port: 0, maxBodyBytes: 64 * 1024, onSpans: (s) => got.push(...s) });
    const url = receiver.url;
    const t = exportRequestType();
    const good = t
      .encode(
        t.fromObject({
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: [
                    {
                      traceId: Buffer.alloc(16, 1),
                      spanId: Buffer.alloc(8, 2),
                      name: 'x',
                      startTimeUnixNano: '1764000000000000000',
                      endTimeUnixNano: '1764000000500000000',
                    },
                  ],
                },
              ],
            },
          ],
        }),
      )
      .finish();
    const proto = { 'content-type': 'application/x-protobuf' };
    const json = { 'content-type': 'application/json' };
    const cases: [string, Record<string, string>, Buffer, string][] = [
      ['truncated protobuf', proto, Buffer.from(good.subarray(0, good.length - 7)), 'protobuf'],
      ['wrong content type', { 'content-type': 'text/plain' }, Buffer.from(good), 'content-type'],
      [
        'gzip bomb',
        { ...proto, 'content-encoding': 'gzip' },
        gzipSync(Buffer.alloc(64 * 1024 * 1024)),
        'too-large',
      ],
      ['oversized', proto, Buffer.alloc(200 * 1024, 0x0a), 'too-large'],
      ['deep JSON', json, Buffer.from('['.repeat(30_000) + ']'.repeat(30_000)), 'shape'],
      ['not JSON', json, Buffer.from('{"resourceSpans": [}'), 'json'],
      [
        'bad ids',
        json,
        Buffer.from('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"zz"}]}]}]}'),
        'shape',
      ],
      ['not gzip', { ...json, 'content-encoding': 'gzip' }, Buffer.from('{}'), 'gzip'],
    ];
    for (const [what, headers, body, kind] of cases) {
      const r = await post(url, headers, body);
      expect(r.status, what).toBe(400);
      expect(r.body, what).toContain(kind);
    }
    expect(receiver.stats().rejected).toEqual({
      protobuf: 1,
      'content-type': 1,
      'too-large': 2,
      shape: 2,
      json: 1,
      gzip: 1,
    });
    // Still serving: a good body after all that is taken.
    const r = await post(url, proto, Buffer.from(good));
    expect(r.status).toBe(200);
    expect(got.map((s) => s.traceId)).toEqual(['01'.repeat(16)]);
    expect(got[0]!.endWallMs - got[0]!.startWallMs).toBe(500);
  });
});

function post(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    // A server may answer and close before the whole body is written (oversized): that is fine.
    req.on('error', (e) =>
      e.message.includes('EPIPE') || e.message.includes('ECONNRESET') ? undefined : reject(e),
    );
    req.end(body);
  });
}
