/**
 * An OTLP/HTTP trace receiver (https://opentelemetry.io/docs/specs/otlp/#otlphttp): `POST
 * /v1/traces` with an ExportTraceServiceRequest in protobuf (`application/x-protobuf`) or JSON
 * (`application/json`), optionally gzip'd (`content-encoding: gzip`). Bound to 127.0.0.1 unless a
 * host is given. Every body is bounded before and after decompression; whatever is malformed,
 * oversized or hostile gets a 400 with its reason, is counted by kind, and never throws out of
 * here. Accepted spans go to `onSpans` (the caller joins them: shared/tracing/join.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzip } from 'node:zlib';
import type { OtlpSpan } from '../../shared/tracing/spans.ts';
import { decodeJson, decodeProtobuf } from './decode.ts';

/** Default body limit, compressed and decompressed alike. */
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

type RejectKind =
  | 'method'
  | 'path'
  | 'content-type'
  | 'encoding'
  | 'too-large'
  | 'gzip'
  | 'protobuf'
  | 'json'
  | 'shape'
  /** The receiver's own consumer failed on good spans (a bug): 500. */
  | 'internal';

export interface ReceiverStats {
  /** Exports accepted, and the spans they held. */
  exports: number;
  spans: number;
  /** Bodies refused, by why. */
  rejected: Partial<Record<RejectKind, number>>;
  /** The last refusal's message. */
  lastRejection: string | null;
}

export interface OtlpReceiverOptions {
  /** 0: any free port. */
  port: number;
  /** Default 127.0.0.1 (loopback). */
  host?: string;
  maxBodyBytes?: number;
  onSpans: (spans: OtlpSpan[]) => void;
}

export interface OtlpReceiver {
  /** The traces endpoint, e.g. http://127.0.0.1:4318/v1/traces. */
  readonly url: string;
  readonly port: number;
  stats(): ReceiverStats;
  close(): Promise<void>;
}

type Refusal = { kind: RejectKind; message: string };

export async function startOtlpReceiver(o: OtlpReceiverOptions): Promise<OtlpReceiver> {
  const max = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const stats: ReceiverStats = { exports: 0, spans: 0, rejected: {}, lastRejection: null };
  const refuse = (res: http.ServerResponse, r: Refusal): void => {
    stats.rejected[r.kind] = (stats.rejected[r.kind] ?? 0) + 1;
    stats.lastRejection = `${r.kind}: ${r.message}`;
    if (res.headersSent) return;
    const status = { method: 405, path: 404, internal: 500 }[r.kind as string] ?? 400;
    res.writeHead(status, {
      'content-type': 'application/json',
      connection: 'close',
    });
    // The OTLP spec's error body is a google.rpc.Status; its JSON form is readable enough.
    res.end(JSON.stringify({ code: 3, message: `${r.kind}: ${r.message}` }));
  };
  const server = http.createServer((req, res) => {
    handle(req, res, max).then(
      (r) => {
        if ('kind' in r) return refuse(res, r);
        try {
          o.onSpans(r.spans);
        } catch (e) {
          return refuse(res, { kind: 'internal', message: String(e) });
        }
        stats.exports++;
        stats.spans += r.spans.length;
        res.writeHead(200, { 'content-type': r.json ? 'application/json' : 'application/x-protobuf' });
        // An ExportTraceServiceResponse with no partial_success: `{}`, or zero protobuf bytes.
        res.end(r.json ? '{}' : undefined);
      },
      (e: unknown) => refuse(res, { kind: 'shape', message: String(e) }),
    );
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => resolve());
  });
  const a = server.address() as AddressInfo;
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return {
    url: `http://${host}:${a.port}/v1/traces`,
    port: a.port,
    stats: () => ({ ...stats, rejected: { ...stats.rejected } }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  max: number,
): Promise<Refusal | { spans: OtlpSpan[]; json: boolean }> {
  const path = (req.url ?? '').split('?')[0];
  const drain = (r: Refusal): Refusal => (req.resume(), r);
  if (req.method !== 'POST') return drain({ kind: 'method', message: `${req.method} (POST only)` });
  if (path !== '/v1/traces')
    return drain({ kind: 'path', message: `${path} (the traces endpoint is /v1/traces)` });
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const json = type === 'application/json';
  if (!json && type !== 'application/x-protobuf')
    return drain({
      kind: 'content-type',
      message: `${type || 'none'} (application/x-protobuf or application/json)`,
    });
  const enc = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (enc !== 'gzip' && enc !== 'identity')
    return drain({ kind: 'encoding', message: `${enc} (gzip or none)` });
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) return drain({ kind: 'too-large', message: `${declared} bytes (limit ${max})` });
  const raw = await readBody(req, max);
  if (raw === null) {
    res.setHeader('connection', 'close');
    return { kind: 'too-large', message: `more than ${max} bytes (limit ${max})` };
  }
  let body = raw;
  if (enc === 'gzip') {
    const g = await gunzipBounded(raw, max);
    if ('kind' in g) return g;
    body = g.body;
  }
  const r = json ? decodeJson(body.toString('utf8')) : decodeProtobuf(body);
  if (!r.ok) return { kind: r.error.kind, message: r.error.message };
  return { spans: r.value, json };
}

/** The body, or null past `max` bytes (reading stops there; the rest is discarded). */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > max) {
        over = true;
        parts.length = 0;
        resolve(null);
        return;
      }
      parts.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(parts));
    });
    req.on('error', () => resolve(null));
  });
}

/** gzip with the decompressed size bounded (a gzip bomb stops at `max`, not at memory's end). */
function gunzipBounded(raw: Buffer, max: number): Promise<Refusal | { body: Buffer }> {
  return new Promise((resolve) => {
    gunzip(raw, { maxOutputLength: max }, (err, out) => {
      if (!err) return resolve({ body: out });
      const code = (err as NodeJS.ErrnoException).code;
      resolve(
        code === 'ERR_BUFFER_TOO_LARGE'
          ? { kind: 'too-large', message: `decompresses past ${max} bytes (limit ${max})` }
          : { kind: 'gzip', message: `not gzip: ${err.message}` },
      );
    });
  });
}
