/**
 * llama.cpp's connection habit, on demand. Its server advertises `Keep-Alive: timeout=5, max=100`
 * on a streamed response but closes the connection once the stream is over. A client with a
 * keep-alive pool (Node's http.Agent with keepAlive) puts the socket back in its pool when the
 * response ends; the next request that reuses it is reset before any response byte
 * (ECONNRESET / 'socket hang up').
 *
 * Armed for every request by the option `closeAfterStream`, or per request by the fault
 * `close-after-stream[:ms]`: a keep-alive response carries those two headers; once a streamed
 * response (SSE or NDJSON) has gone out in full, its connection is closed `delayMs` later (default
 * 5: long enough for a client that sends its next request as soon as the last one ended to have
 * reused the socket, which is what makes the real server hurt). A request that arrives on that
 * connection in between is never answered: the connection is reset, as a closed socket's kernel
 * would. Non-streamed responses keep their connection, as llama.cpp's do.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const DEFAULT_CLOSE_AFTER_STREAM_MS = 5;
/** The header llama.cpp's server (cpp-httplib) sends. @internal exported for its tests */
export const LLAMACPP_KEEP_ALIVE = 'timeout=5, max=100';

const STREAMED = /^\s*(text\/event-stream|application\/x-ndjson)/i;

/** Connections being closed after a stream: whatever arrives on them is not answered. */
const closing = new WeakSet<Socket>();
/** Responses already armed (the option and a per-request fault may both apply: the last delay wins). */
const armed = new WeakMap<ServerResponse, { delayMs: number }>();

function keepAliveRequested(req: IncomingMessage): boolean {
  const c = String(req.headers.connection ?? '').toLowerCase();
  return req.httpVersion === '1.1' ? !c.includes('close') : c.includes('keep-alive');
}

/** Arm `res`: call before its headers are written. */
export function closeAfterStream(req: IncomingMessage, res: ServerResponse, delayMs: number): void {
  // A client that asked for `Connection: close` gets it closed anyway (node:http does that).
  if (!keepAliveRequested(req) || res.headersSent) return;
  const prev = armed.get(res);
  if (prev) {
    prev.delayMs = delayMs;
    return;
  }
  const arm = { delayMs };
  armed.set(res, arm);
  // Set explicitly, node:http writes no Connection/Keep-Alive of its own.
  res.setHeader('connection', 'keep-alive');
  res.setHeader('keep-alive', LLAMACPP_KEEP_ALIVE);
  res.once('finish', () => {
    if (!STREAMED.test(String(res.getHeader('content-type') ?? ''))) return;
    const socket = req.socket;
    if (socket.destroyed) return;
    closing.add(socket);
    const timer = setTimeout(() => socket.destroy(), Math.max(0, arm.delayMs));
    socket.once('close', () => clearTimeout(timer));
  });
}

/**
 * A request arrived on `socket`: true if the connection is being closed after a stream, in which
 * case it has been reset (the request gets no response byte) and the caller must do nothing more.
 */
export function refuseOnClosing(socket: Socket): boolean {
  if (!closing.has(socket)) return false;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
  return true;
}
