/**
 * Web mode's HTTP API, for what does not belong on the message socket: large payloads. A vLLM
 * `--save-detailed` result is hundreds of MB, far past the socket's 8 MiB message limit, so an
 * import is uploaded as a streamed request body into a private temp file and imported from there
 * in bounded memory; an export is a plain download. Every route needs the token as a bearer
 * header (a page from another origin can't send that header without a CORS preflight, which is
 * never granted); writes also need a same-origin `Origin`.
 *
 * | route                              | answer                                                   |
 * |------------------------------------|----------------------------------------------------------|
 * | GET  /api/session                  | 204 with a good token, 401 without one, 403 a wrong one  |
 * | POST /api/import?filename=NAME     | the import's Result as JSON; 413 past the size limit     |
 * | GET  /api/export?key=KEY&format=F  | the file (Content-Disposition: attachment) or a Result   |
 * | GET  /api/report?key=K1&key=K2…    | the HTML report of those runs (attachment) or a Result   |
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import type { Result } from '../shared/api.ts';
import type { RunExport } from '../shared/runs-api.ts';
import type { Core } from './app/core.ts';
import { dispatch } from './app/handlers.ts';
import { RunError } from './app/runs-service.ts';
import { bearerOf, sameOrigin, tokenOk } from './serve-guard.ts';
import { errorMessage } from '../shared/result.ts';

/** The largest upload web mode accepts (real detailed results are hundreds of MB). */
const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

type Headers = http.OutgoingHttpHeaders;

function sendJson(res: http.ServerResponse, status: number, body: object, headers: Headers): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function failure(kind: string, code: string, message: string): Result<never> {
  return { ok: false, error: { kind, code, message } } as Result<never>;
}

/**
 * Answers an /api/ request; false when the path is not an API route. `headers` are the
 * security headers every answer carries.
 */
export function handleApi(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathname: string,
  query: URLSearchParams,
  token: string,
  core: Core,
  headers: Headers,
  log?: (line: string) => void,
): boolean {
  if (!pathname.startsWith('/api/')) return false;
  const given = bearerOf(req);
  if (!tokenOk(given, token)) {
    const missing = given === null;
    sendJson(
      res,
      missing ? 401 : 403,
      failure(
        'client',
        missing ? 'missing-token' : 'wrong-token',
        missing
          ? 'This page has no access token: open the address `tokenscope serve` printed (it ends in ?token=…).'
          : 'The access token is wrong (the server was restarted with a new one?): open the address `tokenscope serve` printed.',
      ),
      headers,
    );
    req.resume();
    return true;
  }
  const route = `${req.method} ${pathname}`;
  if (route === 'GET /api/session') {
    res.writeHead(204, headers).end();
    return true;
  }
  if (route === 'GET /api/export') {
    void exportRoute(res, query, core, headers);
    return true;
  }
  if (route === 'GET /api/report') {
    void reportRoute(res, query, core, headers);
    return true;
  }
  if (route === 'POST /api/import') {
    if (!sameOrigin(req)) {
      sendJson(
        res,
        403,
        failure('client', 'cross-origin', 'Uploads come from this server’s page only.'),
        headers,
      );
      req.resume();
      return true;
    }
    void importRoute(req, res, query, core, headers, log);
    return true;
  }
  sendJson(res, 404, failure('client', 'not-found', `No API route ${route}.`), headers);
  req.resume();
  return true;
}

async function exportRoute(
  res: http.ServerResponse,
  query: URLSearchParams,
  core: Core,
  headers: Headers,
): Promise<void> {
  const r = await dispatch(core.handlers, 'exportRun', [query.get('key'), query.get('format')]);
  if (!r.ok) {
    sendJson(res, r.error.code === 'not-found' ? 404 : 400, r, headers);
    return;
  }
  sendExport(res, r.value as RunExport, headers);
}

/** The report of `key`s (`definitions` optional): arguments checked by the contract's schema. */
async function reportRoute(
  res: http.ServerResponse,
  query: URLSearchParams,
  core: Core,
  headers: Headers,
): Promise<void> {
  const r = await dispatch(core.handlers, 'exportReport', [
    query.getAll('key'),
    query.get('definitions') ?? undefined,
  ]);
  if (!r.ok) {
    sendJson(res, r.error.code === 'not-found' ? 404 : 400, r, headers);
    return;
  }
  sendExport(res, r.value as RunExport, headers);
}

/** A file to save: its bytes with its type and name. */
function sendExport(res: http.ServerResponse, e: RunExport, headers: Headers): void {
  const body = Buffer.from(e.content, 'utf8');
  // RFC 6266: an ASCII fallback plus the exact name, percent-encoded.
  const ascii = e.filename.replace(/[^A-Za-z0-9._-]/g, '_');
  res.writeHead(200, {
    ...headers,
    'content-type': e.mime,
    'content-length': body.length,
    'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(e.filename)}`,
  });
  res.end(body);
}

async function importRoute(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  query: URLSearchParams,
  core: Core,
  headers: Headers,
  log?: (line: string) => void,
): Promise<void> {
  const filename = query.get('filename') ?? '';
  if (filename.length < 1 || filename.length > 255) {
    sendJson(
      res,
      400,
      failure('client', 'invalid-arguments', 'The upload needs ?filename= (1–255 characters).'),
      headers,
    );
    req.resume();
    return;
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  const tooLarge = failure(
    'client',
    'too-large',
    `${filename} is larger than the ${MAX_UPLOAD_BYTES / 1024 ** 3} GiB an import may be.`,
  );
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES) {
    refuseTooLarge(req, res, tooLarge, headers);
    return;
  }
  let dir: string | null = null;
  try {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tokenscope-upload-'));
    const file = path.join(dir, 'upload');
    const received = await receive(req, file);
    if (received === 'too-large') {
      refuseTooLarge(req, res, tooLarge, headers);
      return;
    }
    if (received === 'aborted') return; // the page went away: nobody to answer
    let result: Result<unknown>;
    try {
      result = { ok: true, value: await core.runs.importFile(filename, file) };
    } catch (e) {
      result =
        e instanceof RunError
          ? failure('client', e.kind ?? 'invalid', e.message)
          : failure('io', (e as NodeJS.ErrnoException).code ?? 'io', errorMessage(e));
    }
    sendJson(res, result.ok ? 200 : 400, result, headers);
  } catch (e) {
    log?.(`web import failed: ${errorMessage(e)}`);
    if (!res.headersSent) sendJson(res, 500, failure('io', 'io', errorMessage(e)), headers);
  } finally {
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** 413, then the connection is closed once the answer is out (the rest of the body is not read). */
function refuseTooLarge(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: object,
  headers: Headers,
): void {
  res.once('finish', () => req.socket.destroy());
  sendJson(res, 413, body, { ...headers, connection: 'close' });
}

/** Streams the request body into `file` (0600), stopping at the size limit. */
function receive(req: http.IncomingMessage, file: string): Promise<'ok' | 'too-large' | 'aborted'> {
  return new Promise((resolve, reject) => {
    // A body the HTTP parser gave up on (a malformed chunk size: the server answered 400 and closed)
    // may have ended while the temp folder was being made, its 'aborted'/'error'/'close' already
    // gone: nothing more will come. Waiting for them kept the file open and the folder on disk,
    // once per such upload.
    if (req.destroyed || req.readableAborted) {
      resolve('aborted');
      return;
    }
    const out = fs.createWriteStream(file, { mode: 0o600, flags: 'wx' });
    let size = 0;
    let settled = false;
    const settle = (v: 'ok' | 'too-large' | 'aborted'): void => {
      if (settled) return;
      settled = true;
      if (v === 'ok') out.end(() => resolve(v));
      else {
        out.destroy();
        resolve(v);
      }
    };
    out.on('error', (e) => {
      if (!settled) {
        settled = true;
        req.resume();
        reject(e);
      }
    });
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_UPLOAD_BYTES) {
        req.pause();
        settle('too-large');
        return;
      }
      if (!out.write(b)) {
        req.pause();
        out.once('drain', () => req.resume());
      }
    });
    req.on('end', () => settle('ok'));
    req.on('aborted', () => settle('aborted'));
    req.on('error', () => settle('aborted'));
    req.on('close', () => settle('aborted'));
  });
}
