/**
 * One clock probe: a GET whose answer's `Date` header says the reference's time, bracketed by this
 * machine's clock just before the request is written and when the response head arrives. Not the
 * core's httpGet (engine/http-get.ts): this needs the instant the head arrived and one kept-alive
 * connection (a new connection's handshake would widen every bracket), and no body at all.
 */
import http from 'node:http';
import https from 'node:https';

/** This machine's clock as epoch ms, sub-millisecond (the run clock's wall mapping: clockZeroWall). */
export const localMs = (): number => performance.timeOrigin + performance.now();

export interface ClockProbe {
  /** Local ms just before the request was written. */
  sendMs: number;
  /** Local ms when the response head arrived. */
  recvMs: number;
  /** The Date header as epoch seconds (whole: HTTP dates have no fraction), or null when absent. */
  dateS: number | null;
}

export interface ProbeClient {
  probe(): Promise<ClockProbe>;
  close(): void;
}

/** A keep-alive client for `url` (GET, no credentials sent: any answer, even a 404, carries Date). */
export function probeClient(url: URL, o: { insecureTls?: boolean; timeoutMs?: number } = {}): ProbeClient {
  const lib = url.protocol === 'https:' ? https : http;
  const agent = new lib.Agent({ keepAlive: true, maxSockets: 1 });
  const timeoutMs = o.timeoutMs ?? 2000;
  return {
    probe: () =>
      new Promise<ClockProbe>((resolve, reject) => {
        const req = lib.request(url, {
          method: 'GET',
          agent,
          headers: { accept: '*/*', 'user-agent': 'tokenscope-clock' },
          ...(url.protocol === 'https:' ? { rejectUnauthorized: !o.insecureTls } : {}),
        });
        const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        let sendMs = 0;
        req.on('response', (res) => {
          const recvMs = localMs();
          clearTimeout(timer);
          const d = res.headers.date;
          const parsed = d ? Date.parse(d) : NaN;
          res.resume(); // the body is not wanted; drained so the connection is reused
          resolve({ sendMs, recvMs, dateS: Number.isFinite(parsed) ? Math.floor(parsed / 1000) : null });
        });
        req.on('error', (e) => {
          clearTimeout(timer);
          reject(e);
        });
        sendMs = localMs();
        req.end();
      }),
    close: () => agent.destroy(),
  };
}
