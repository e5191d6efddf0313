/**
 * The scraper against a real node:http server on 127.0.0.1:0. Tests wait on the scraper's own
 * state events, never on sleeps.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CORPUS_DIR } from '../testing/corpus.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveMetricsUrl, Scraper, type ScrapeResult, type ScrapeState } from './scraper.ts';

const CORPUS = path.join(CORPUS_DIR, 'metrics') + path.sep;
if (!existsSync(CORPUS))
  throw new Error(`metrics corpus missing: expected it at ${CORPUS} (test-corpus/ in the repository)`);
const VLLM = readFileSync(CORPUS + 'vllm-v1.prom', 'utf8');

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

async function serve(handler: Handler): Promise<{ base: string; port: number }> {
  const server = http.createServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, port };
}

/** Collects state events; `until` resolves at the first state (past or future) that matches. */
function stateLog() {
  const states: ScrapeState[] = [];
  const waiters: { pred: (s: ScrapeState) => boolean; ok: (s: ScrapeState) => void }[] = [];
  const onState = (s: Readonly<ScrapeState>): void => {
    states.push({ ...s });
    for (const w of [...waiters]) {
      if (!w.pred(s)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.ok(s);
    }
  };
  const until = (pred: (s: ScrapeState) => boolean, from = 0): Promise<ScrapeState> => {
    const seen = states.slice(from).find(pred);
    return seen ? Promise.resolve(seen) : new Promise((ok) => waiters.push({ pred, ok }));
  };
  return { states, onState, until };
}

describe('deriveMetricsUrl', () => {
  it.each([
    ['http://h:8000', undefined, 'http://h:8000/metrics'],
    ['http://h:8000/', undefined, 'http://h:8000/metrics'],
    ['http://h:8000/v1', undefined, 'http://h:8000/metrics'],
    ['https://h/proxy/vllm/v1/', undefined, 'https://h/proxy/vllm/metrics'],
    ['http://h:8000/metrics', undefined, 'http://h:8000/metrics'],
    ['http://h:8000/v1/chat/completions', undefined, 'http://h:8000/metrics'],
    ['https://h/proxy/vllm/v1/models?x=1', undefined, 'https://h/proxy/vllm/metrics'],
    ['http://h:8000/v1', '/prom', 'http://h:8000/prom'],
    ['http://h:8000', 'http://h:8002/metrics', 'http://h:8002/metrics'],
  ])('%s (+%s) → %s', (base, override, want) => {
    expect(deriveMetricsUrl(base, override).href).toBe(want);
  });

  it('refuses non-http URLs at construction, not in the loop', () => {
    expect(() => new Scraper({ url: 'ftp://h/' })).toThrow(TypeError);
  });
});

describe('Scraper', () => {
  it('goes ok → failing with growing backoff → ok again', async () => {
    let mode: 'ok' | 'fail' = 'ok';
    const seen: { at: number; path: string; accept: string; auth: string; ok: boolean }[] = [];
    const { base } = await serve((req, res) => {
      seen.push({
        at: performance.now(),
        path: req.url ?? '',
        accept: String(req.headers.accept),
        auth: String(req.headers.authorization),
        ok: mode === 'ok',
      });
      if (mode === 'ok') {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(VLLM);
      } else {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"engine dead"}}');
      }
    });
    const log = stateLog();
    const results: ScrapeResult[] = [];
    const s = new Scraper(
      {
        url: `${base}/v1`,
        intervalMs: 20,
        maxBackoffMs: 200,
        timeoutMs: 2000,
        headers: { authorization: 'Bearer t0k' },
      },
      { onState: log.onState, onScrape: (r) => results.push(r) },
    );
    cleanups.push(() => s.stop());
    s.start();

    const ok1 = await log.until((st) => st.status === 'ok');
    expect(ok1.profile?.id).toBe('vllm-v1');
    expect(results[0]?.parsed.families.length).toBe(64);
    expect(results[0]?.parsed.errors).toEqual([]);
    expect(results[0]?.monoMs).toBeGreaterThan(0);
    expect(Math.abs((results[0]?.wallMs ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(seen[0]).toMatchObject({ path: '/metrics', auth: 'Bearer t0k' });
    expect(seen[0]?.accept).toMatch(/^text\/plain/);
    expect(seen[0]?.accept).not.toMatch(/openmetrics/);

    mode = 'fail';
    const failing = await log.until((st) => st.consecutiveFailures >= 3);
    expect(failing.status).toBe('failing');
    expect(failing.lastError).toMatchObject({ kind: 'http', status: 500, message: 'HTTP 500: engine dead' });
    expect(failing.lastSuccessAt).toBe(ok1.lastSuccessAt ?? -1);
    // Each failure schedules the next try interval·2ⁿ later: 40, 80, 160 ms (capped at 200).
    const fails = log.states.filter((st) => st.status === 'failing');
    for (const [i, st] of fails.slice(0, 3).entries()) {
      expect(st.consecutiveFailures).toBe(i + 1);
      expect((st.nextAttemptAt ?? 0) - (st.lastAttemptAt ?? 0)).toBeGreaterThanOrEqual(s.backoffMs(i + 1));
    }
    const failedHits = seen.filter((x) => !x.ok).map((x) => x.at);
    const gaps = failedHits.slice(1).map((t, i) => t - (failedHits[i] as number));
    expect(gaps[0]).toBeGreaterThanOrEqual(40 - 1);
    expect(gaps[1]).toBeGreaterThanOrEqual(80 - 1);

    mode = 'ok';
    const from = log.states.length;
    const ok2 = await log.until((st) => st.status === 'ok', from);
    expect(ok2).toMatchObject({ lastError: null, consecutiveFailures: 0 });
    expect(ok2.failures).toBeGreaterThanOrEqual(3);
    expect(ok2.scrapes).toBeGreaterThanOrEqual(2);

    s.stop();
    expect(s.isRunning).toBe(false);
    expect(s.state.nextAttemptAt).toBeNull();
  });

  it('classifies timeouts, refused connections and non-metrics bodies', async () => {
    const hang = await serve(() => undefined); // never answers
    const timeout = await new Scraper({ url: hang.base, timeoutMs: 100 }).scrapeOnce();
    expect(timeout).toMatchObject({ kind: 'client', code: 'timeout' });

    const closed = await serve(() => undefined);
    cleanups.pop()?.(); // close it: the port now refuses
    const refused = await new Scraper({ url: closed.base }).scrapeOnce();
    expect(refused).toMatchObject({ kind: 'network', code: 'refused' });

    const html = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'),
    );
    const s = new Scraper({ url: html.base });
    expect(await s.scrapeOnce()).toMatchObject({ kind: 'protocol', code: 'content-type', status: 200 });
    expect(s.state).toMatchObject({ status: 'failing', consecutiveFailures: 1 });

    const big = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(VLLM));
    expect(await new Scraper({ url: big.base, maxBodyBytes: 1000 }).scrapeOnce()).toMatchObject({
      kind: 'protocol',
    });
  });

  it('stop() cancels an in-flight scrape without counting a failure; start() resumes', async () => {
    let arrived: () => void = () => undefined;
    const firstArrival = new Promise<void>((ok) => (arrived = ok));
    let holdFirst = true;
    const { base } = await serve((_req, res) => {
      arrived();
      if (holdFirst)
        holdFirst = false; // leave the first request hanging
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(VLLM);
    });
    const log = stateLog();
    const s = new Scraper({ url: base, intervalMs: 10 }, { onState: log.onState });
    cleanups.push(() => s.stop());
    s.start();
    await firstArrival;
    s.stop();
    expect(s.state).toMatchObject({
      failures: 0,
      consecutiveFailures: 0,
      status: 'idle',
      nextAttemptAt: null,
    });
    s.start();
    const ok = await log.until((st) => st.scrapes >= 2);
    expect(ok.failures).toBe(0);
  });

  it('keeps scraping when a listener throws', async () => {
    const { base } = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(VLLM),
    );
    const log = stateLog();
    const listenerErrors: unknown[] = [];
    const s = new Scraper(
      { url: base, intervalMs: 10 },
      {
        onState: log.onState,
        onScrape: () => {
          throw new Error('chart exploded');
        },
        onListenerError: (e) => listenerErrors.push(e),
      },
    );
    cleanups.push(() => s.stop());
    s.start();
    await log.until((st) => st.scrapes >= 3);
    expect(listenerErrors.length).toBeGreaterThanOrEqual(3);
    expect(String(listenerErrors[0])).toMatch(/chart exploded/);
  });
});
