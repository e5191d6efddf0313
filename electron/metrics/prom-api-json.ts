/**
 * The Prometheus HTTP API's JSON (prometheus/docs content/docs/prometheus/latest/querying/api.md),
 * validated at the boundary with zod: `{status:"success", data:{resultType, result}, warnings}` or
 * `{status:"error", errorType, error}`. Sample values arrive as strings ("1.5", "NaN", "+Inf",
 * "-Inf", "1e+06") and are read with the exposition parser's number rules; timestamps are float
 * seconds and stay seconds. Native-histogram fields are tolerated and ignored (classic buckets only).
 */
import type { Result } from '../../shared/result.ts';
import { z } from 'zod';
import type { RequestError } from '../../shared/errors.ts';
import { parsePromNumber } from '../../shared/metrics/prom-number.ts';
import type { Labels } from '../../shared/metrics/prom-types.ts';

/** A query-API failure: a RequestError plus Prometheus' own `errorType` when it sent one. */
export interface PromApiError extends RequestError {
  /** bad_data (the query or its parameters are wrong), execution, timeout, canceled, internal, unavailable, … */
  errorType?: string;
}

export interface ApiPoint {
  /** Seconds since the epoch (Prometheus' own resolution: milliseconds as a fraction). */
  t: number;
  v: number;
}

export interface ApiSeries {
  metric: Labels;
  points: ApiPoint[];
}

export interface QueryData {
  resultType: 'matrix' | 'vector' | 'scalar';
  /** A scalar comes back as one label-less series of one point. */
  series: ApiSeries[];
  warnings: string[];
}

const Pair = z.tuple([z.number(), z.string()]);
const Metric = z.record(z.string(), z.string());
const Matrix = z.array(z.object({ metric: Metric, values: z.array(Pair).optional() }));
const Vector = z.array(z.object({ metric: Metric, value: Pair.optional() }));
const Success = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.enum(['matrix', 'vector', 'scalar', 'string']),
    result: z.unknown(),
  }),
  warnings: z.array(z.string()).optional(),
});
const Failure = z.object({
  status: z.literal('error'),
  errorType: z.string().optional(),
  error: z.string().optional(),
});

type Parsed = Result<QueryData, PromApiError>;

function protocol(message: string, status: number, body: string): Parsed {
  return {
    ok: false,
    error: { kind: 'protocol', code: 'bad-json', message, status, body: body.slice(0, 2000) },
  };
}

function points(pairs: readonly (readonly [number, string])[]): ApiPoint[] | string {
  const out: ApiPoint[] = [];
  for (const [t, s] of pairs) {
    const v = parsePromNumber(s);
    if (v === undefined) return `sample value ${JSON.stringify(s)} is not a number`;
    out.push({ t, v });
  }
  return out;
}

/**
 * A Prometheus `status:"error"` body as a classified error, or null when the body is not one.
 * Prometheus answers every such error with a 4xx/5xx status (400 bad_data, 422 execution,
 * 503 timeout/unavailable): the server refused or failed the query, so the kind is http, with
 * errorType kept to tell a wrong query (bad_data) from a struggling server.
 */
export function promErrorFromBody(status: number, body: string): PromApiError | null {
  let j: unknown;
  try {
    j = JSON.parse(body);
  } catch {
    return null;
  }
  const f = Failure.safeParse(j);
  if (!f.success) return null;
  const type = f.data.errorType ?? 'unknown';
  const err: PromApiError = {
    kind: 'http',
    code: 'status',
    status,
    body: body.slice(0, 2000),
    message: `Prometheus error ${type} (HTTP ${status}): ${f.data.error ?? '(no message)'}`,
    errorType: type,
  };
  return err;
}

/** Parses a 2xx answer of /api/v1/query or /api/v1/query_range. */
export function parseQueryResponse(status: number, body: string, contentType: string | null): Parsed {
  let j: unknown;
  try {
    j = JSON.parse(body);
  } catch {
    const what = contentType ?? 'no content type';
    return protocol(`Not JSON (${what}): is this a Prometheus server's address?`, status, body);
  }
  const failed = promErrorFromBody(status, body);
  if (failed !== null) return { ok: false, error: failed };
  const s = Success.safeParse(j);
  if (!s.success)
    return protocol(`Not a Prometheus API answer: ${s.error.issues[0]?.message ?? ''}`, status, body);
  const { resultType, result } = s.data.data;
  const warnings = s.data.warnings ?? [];
  const series: ApiSeries[] = [];
  if (resultType === 'string') return protocol('The query returned a string, not numbers.', status, body);
  if (resultType === 'scalar') {
    const p = Pair.safeParse(result);
    if (!p.success) return protocol('Malformed scalar result.', status, body);
    const pts = points([p.data]);
    if (typeof pts === 'string') return protocol(pts, status, body);
    series.push({ metric: {}, points: pts });
  } else if (resultType === 'vector') {
    const v = Vector.safeParse(result);
    if (!v.success) return protocol('Malformed vector result.', status, body);
    for (const r of v.data) {
      // A native-histogram sample has `histogram` instead of `value`: no float to report.
      const pts = points(r.value === undefined ? [] : [r.value]);
      if (typeof pts === 'string') return protocol(pts, status, body);
      series.push({ metric: r.metric, points: pts });
    }
  } else {
    const m = Matrix.safeParse(result);
    if (!m.success) return protocol('Malformed matrix result.', status, body);
    for (const r of m.data) {
      const pts = points(r.values ?? []);
      if (typeof pts === 'string') return protocol(pts, status, body);
      series.push({ metric: r.metric, points: pts });
    }
  }
  return { ok: true, value: { resultType, series, warnings } };
}
