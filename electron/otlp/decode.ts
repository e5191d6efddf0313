/**
 * Decodes an OTLP/HTTP trace export (`ExportTraceServiceRequest`, opentelemetry-proto
 * collector/trace/v1/trace_service.proto) into spans: protobuf with protobufjs over the vendored
 * definitions (proto-text.ts), JSON per the OTLP spec's JSON mapping (ids as hex, 64-bit integers
 * as decimal strings or numbers, lowerCamelCase names). Both land in the same normalizer, which
 * walks a fixed depth (resource → scope → span → attribute) and never follows nested values, so a
 * deep body costs no recursion here. Anything malformed is an error value, never a throw.
 */
import protobuf from 'protobufjs';
import type { Result } from '../../shared/result.ts';
import { errorMessage, fail, ok } from '../../shared/result.ts';
import { nanosToMs, type OtlpSpan, type SpanAttributeValue } from '../../shared/tracing/spans.ts';
import { COMMON_PROTO, RESOURCE_PROTO, TRACE_PROTO, TRACE_SERVICE_PROTO } from './proto-text.ts';

type DecodeProblem = 'protobuf' | 'json' | 'shape';
export interface DecodeError {
  kind: DecodeProblem;
  message: string;
}

/** Spans in one export past this are refused (a collector batches 512 by default). */
const MAX_SPANS_PER_EXPORT = 20_000;
const MAX_ATTRIBUTES = 256;

let requestType: protobuf.Type | null = null;
/** The ExportTraceServiceRequest type, parsed once from the vendored text. */
export function exportRequestType(): protobuf.Type {
  if (requestType) return requestType;
  const root = new protobuf.Root();
  for (const text of [COMMON_PROTO, RESOURCE_PROTO, TRACE_PROTO, TRACE_SERVICE_PROTO])
    protobuf.parse(text, root, { keepCase: false });
  root.resolveAll();
  requestType = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  return requestType;
}

export function decodeProtobuf(body: Uint8Array): Result<OtlpSpan[], DecodeError> {
  let obj: unknown;
  try {
    const t = exportRequestType();
    obj = t.toObject(t.decode(body), { longs: String, enums: Number, bytes: Array, defaults: false });
  } catch (e) {
    return fail({ kind: 'protobuf', message: `not an OTLP protobuf trace export: ${errorMessage(e)}` });
  }
  return spansOf(obj);
}

export function decodeJson(text: string): Result<OtlpSpan[], DecodeError> {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    return fail({ kind: 'json', message: `not JSON: ${errorMessage(e)}` });
  }
  return spansOf(obj);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const shape = (message: string) => fail<DecodeError>({ kind: 'shape', message });

function spansOf(root: unknown): Result<OtlpSpan[], DecodeError> {
  if (!isObj(root)) return shape('the body is not an ExportTraceServiceRequest object');
  const out: OtlpSpan[] = [];
  for (const rs of list(root.resourceSpans)) {
    if (!isObj(rs)) return shape('resourceSpans holds a non-object');
    const resAttrs = isObj(rs.resource) ? attributesOf(rs.resource.attributes) : {};
    const serviceName = typeof resAttrs['service.name'] === 'string' ? resAttrs['service.name'] : null;
    for (const ss of list(rs.scopeSpans)) {
      if (!isObj(ss)) return shape('scopeSpans holds a non-object');
      for (const s of list(ss.spans)) {
        if (out.length >= MAX_SPANS_PER_EXPORT)
          return shape(`more than ${MAX_SPANS_PER_EXPORT} spans in one export`);
        const span = spanOf(s, serviceName);
        if (typeof span === 'string') return shape(span);
        out.push(span);
      }
    }
  }
  return ok(out);
}

function spanOf(s: unknown, serviceName: string | null): OtlpSpan | string {
  if (!isObj(s)) return 'a span is not an object';
  const traceId = hexId(s.traceId, 16);
  const spanId = hexId(s.spanId, 8);
  if (!traceId || !spanId) return 'a span without a valid trace id (16 bytes) and span id (8 bytes)';
  const startWallMs = nanosToMs(time(s.startTimeUnixNano));
  const endWallMs = nanosToMs(time(s.endTimeUnixNano));
  if (!Number.isFinite(startWallMs) || !Number.isFinite(endWallMs)) return 'a span with unreadable times';
  const events = eventsOf(s.events);
  return {
    ...(events.length ? { events } : {}),
    traceId,
    spanId,
    parentSpanId: hexId(s.parentSpanId, 8) ?? '',
    name: typeof s.name === 'string' ? s.name.slice(0, 1000) : '',
    kind: typeof s.kind === 'number' ? s.kind : 0,
    startWallMs,
    endWallMs,
    attributes: attributesOf(s.attributes),
    serviceName,
  };
}

/** A span's events; one with an unreadable time is left out. */
function eventsOf(v: unknown): NonNullable<OtlpSpan['events']> {
  const out: NonNullable<OtlpSpan['events']> = [];
  for (const e of list(v)) {
    if (!isObj(e)) continue;
    const timeWallMs = nanosToMs(time(e.timeUnixNano));
    if (!Number.isFinite(timeWallMs)) continue;
    const name = typeof e.name === 'string' ? e.name.slice(0, 1000) : '';
    out.push({ timeWallMs, name, attributes: attributesOf(e.attributes) });
  }
  return out;
}

function time(v: unknown): string | number {
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return v;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  return v === undefined ? 0 : Number.NaN;
}

/** Protobuf bytes (an array of byte values here) or JSON hex → lowercase hex of `bytes` bytes. */
function hexId(v: unknown, bytes: number): string | null {
  if (typeof v === 'string')
    return new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(v) ? v.toLowerCase() : null;
  if (Array.isArray(v) && v.length === bytes && v.every((b) => typeof b === 'number'))
    return v.map((b: number) => (b & 0xff).toString(16).padStart(2, '0')).join('');
  return null;
}

/** Scalar attributes (string, bool, int, double); arrays, maps and bytes are left out. */
function attributesOf(v: unknown): Record<string, SpanAttributeValue> {
  const out: Record<string, SpanAttributeValue> = {};
  let n = 0;
  for (const kv of list(v)) {
    if (++n > MAX_ATTRIBUTES) break;
    if (!isObj(kv) || typeof kv.key !== 'string' || !isObj(kv.value)) continue;
    const x = kv.value;
    if (typeof x.stringValue === 'string') out[kv.key] = x.stringValue.slice(0, 4096);
    else if (typeof x.boolValue === 'boolean') out[kv.key] = x.boolValue;
    else if (typeof x.doubleValue === 'number') out[kv.key] = x.doubleValue;
    else if (typeof x.intValue === 'string' || typeof x.intValue === 'number') {
      const i = Number(x.intValue);
      if (Number.isFinite(i)) out[kv.key] = i;
    }
  }
  return out;
}
