/**
 * One span as Tokenscope keeps it after decoding an OTLP/HTTP export (electron/otlp/decode.ts):
 * protobuf and JSON both end here. Ids are lowercase hex (W3C trace-context spelling); times are
 * wall-clock milliseconds since the epoch, to the microsecond (OTLP sends nanoseconds).
 */
export type SpanAttributeValue = string | number | boolean;

export interface OtlpSpan {
  /** 32 hex digits. */
  traceId: string;
  /** 16 hex digits. */
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer, 0 unspecified. */
  kind: number;
  startWallMs: number;
  endWallMs: number;
  /** Scalar attributes only (arrays and maps are left out: vLLM sends none we read). */
  attributes: Record<string, SpanAttributeValue>;
  /** The resource's `service.name`, when it has one. */
  serviceName: string | null;
  /** The span's events (time, name, scalar attributes), when it has any. */
  events?: { timeWallMs: number; name: string; attributes: Record<string, SpanAttributeValue> }[];
}

/** Nanoseconds since the epoch (OTLP's fixed64, as a decimal string or a number) → ms, µs precision. */
export function nanosToMs(ns: string | number | bigint): number {
  if (typeof ns === 'number') return Math.round(ns / 1000) / 1000;
  try {
    return Number(BigInt(ns) / 1000n) / 1000;
  } catch {
    return Number.NaN;
  }
}
