/**
 * Web mode: the same renderer and the same contract, over HTTP + WebSocket, for a browser.
 * Bound to loopback by default (use an SSH tunnel for a remote GPU box), guarded by a random
 * token that the socket and the HTTP API must present, a Host check against DNS rebinding, and an
 * Origin check so another site open in the same browser cannot drive it (serve-guard.ts).
 * Large payloads (imports, exports) go over the HTTP API (serve-api.ts), not the socket; each
 * page's socket (events, calls, metrics watches) is serve-sockets.ts.
 */
import type { SimOptions } from './sim/types.ts';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { createCore, type Core } from './app/core.ts';
import { engineConfig } from './engine/io/io-engine.ts';
import { MemorySecretBox } from './app/secrets.ts';
import { CSP } from '../shared/csp.ts';
import { handleApi } from './serve-api.ts';
import { hostAllowed, pathOf, sameOrigin, tokenOk } from './serve-guard.ts';
import { PageSockets } from './serve-sockets.ts';

export interface ServeOptions {
  port?: number;
  host?: string;
  /** Folder with the built renderer (index.html …). */
  rendererDir: string;
  userDataDir: string | null;
  token?: string;
  version: string;
  startSimulator?: boolean;
  /** The built-in simulator's port (default 0: any free one). */
  simPort?: number;
  /** The built-in simulator's options over the demo's (speculative mode for the e2e screenshot). */
  sim?: Omit<SimOptions, 'log'>;
  /** Host names besides loopback, IP literals and `host` that the page may be reached by. */
  allowedHosts?: readonly string[];
  log?: (line: string) => void;
}

export interface WebServer {
  url: string;
  /** The URL to open, with the token. */
  openUrl: string;
  token: string;
  core: Core;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** What the request and upgrade handlers work with. */
interface Served {
  token: string;
  host: string;
  allowedHosts: readonly string[];
  /** The renderer folder, resolved. */
  root: string;
  core: Core;
  log?: (line: string) => void;
}

export async function startWebServer(o: ServeOptions): Promise<WebServer> {
  const token = o.token ?? randomBytes(24).toString('base64url');
  const host = o.host ?? '127.0.0.1';
  const allowedHosts = o.allowedHosts ?? [];
  const pages = new PageSockets(o.log);
  const core = await createCore({
    mode: 'web',
    version: o.version,
    userDataDir: o.userDataDir,
    secrets: new MemorySecretBox(),
    startSimulator: o.startSimulator,
    simPort: o.simPort,
    ...(o.sim ? { sim: o.sim } : {}),
    emit: pages.emit,
    log: o.log,
    // The entry point's engine configuration (the CLI's, built before `serve` ran).
    historyMaxBytes: engineConfig().historyMaxBytes,
  });
  const served: Served = { token, host, allowedHosts, root: path.resolve(o.rendererDir), core, log: o.log };
  const server = http.createServer((req, res) => handleRequest(served, req, res));
  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    if (!upgradeAllowed(served, req, socket)) return;
    wss.handleUpgrade(req, socket, head, (ws) => pages.attach(ws, core));
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port ?? 0, host, () => resolve());
    });
  } catch (e) {
    await core.close(); // the embedded simulator must not outlive a server that never started
    throw e;
  }
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    openUrl: `${url}/?token=${token}`,
    token,
    core,
    async close() {
      pages.closeAll();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
      await core.close();
    },
  };
}

/** An HTTP request: the Host check, then the API, then the page and its assets. */
function handleRequest(s: Served, req: http.IncomingMessage, res: http.ServerResponse): void {
  const headers = {
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
  const text = { ...headers, 'content-type': 'text/plain; charset=utf-8' };
  if (!hostAllowed(req.headers.host, s.host, s.allowedHosts)) {
    res.writeHead(403, text).end(hostRefusal(req.headers.host));
    req.resume();
    return;
  }
  // Any request target, however malformed (`/%`, `/%C0%AE`, `http://[::1/`), is answered, never
  // thrown on: a page from any origin can send one with an <img>.
  const rel0 = pathOf(req.url);
  if (rel0 === null) {
    res.writeHead(400, text).end('bad request\n');
    req.resume();
    return;
  }
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  if (handleApi(req, res, rel0, query, s.token, s.core, headers, s.log)) return;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, headers).end();
    req.resume();
    return;
  }
  // The page and its assets hold no secrets and are served to anyone on loopback (so a reload
  // works once the app has moved the token out of the address bar); every call and event goes
  // over the socket or the API, which require the token and a same-origin page.
  let rel = rel0;
  if (rel === '/') rel = '/index.html';
  const file = path.resolve(s.root, '.' + rel);
  if (!file.startsWith(s.root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, text).end('not found\n');
    return;
  }
  res.writeHead(200, {
    ...headers,
    'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
  });
  fs.createReadStream(file)
    .on('error', () => res.destroy()) // removed or unreadable between the check and the read
    .pipe(res);
}

/** A socket upgrade's guard: Host, path, token and Origin; false when it answered with a refusal. */
function upgradeAllowed(s: Served, req: http.IncomingMessage, socket: Duplex): boolean {
  socket.on('error', () => socket.destroy()); // a peer that resets mid-handshake
  let u: URL;
  try {
    u = new URL(req.url ?? '/', 'http://x');
  } catch {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return false;
  }
  if (!hostAllowed(req.headers.host, s.host, s.allowedHosts)) {
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
    return false;
  }
  if (u.pathname !== '/ws' || !tokenOk(u.searchParams.get('token'), s.token) || !sameOrigin(req)) {
    socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
    socket.destroy();
    return false;
  }
  return true;
}

function hostRefusal(hostHeader: string | undefined): string {
  return (
    `Host "${String(hostHeader ?? '').slice(0, 100)}" is not this machine's: Tokenscope answers only to localhost, ` +
    'an IP address, or a name given with `tokenscope serve --allow-host NAME` (a guard against DNS rebinding).\n'
  );
}
