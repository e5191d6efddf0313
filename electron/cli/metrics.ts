/**
 * `tokenscope metrics URL`: scrape a server's /metrics once (or every interval with --watch) and
 * print the detected profile, the common concepts with their values and rates, and what parsed.
 * Exit codes: 0 ok; 1 the endpoint failed or nothing parsed (in watch mode: the last attempt
 * did); 2 bad arguments.
 */
import type { RequestError } from '../../shared/errors.ts';
import { formatScrapeDigest } from '../metrics/scrape-digest-text.ts';
import { ScrapeDigestBuilder } from '../metrics/scrape-digest.ts';
import { Scraper, type ScrapeResult, type ScrapeState, type ScrapeTarget } from '../metrics/scraper.ts';
import { errorMessage } from '../../shared/result.ts';

export interface MetricsCliOptions {
  json?: boolean;
  watch?: boolean;
  interval: number;
  header?: string[];
  apiKey?: string;
  model?: string;
  timeout?: number;
  insecure?: boolean;
  /** `--prometheus --watch`: URL is a Prometheus server, these are the servers' label matchers. */
  prometheusSelector?: string;
}

const out = (s: string): void => void process.stdout.write(s);

function printError(json: boolean | undefined, url: string, e: RequestError): void {
  if (json) {
    const error = {
      kind: e.kind,
      code: e.code,
      message: e.message,
      ...(e.status ? { status: e.status } : {}),
    };
    out(JSON.stringify({ url, time: new Date().toISOString(), error }) + '\n');
  } else {
    process.stderr.write(`error (${e.kind}): ${url ? url + ': ' : ''}${e.message}\n`);
    if (e.kind === 'http' && e.body) process.stderr.write(`  body: ${e.body.slice(0, 300)}\n`);
  }
}

function usage(json: boolean | undefined, message: string): number {
  printError(json, '', { kind: 'client', code: 'invalid-request', message });
  return 2;
}

/** A scrape that succeeded but holds no metrics (an empty 200) counts as "nothing parsed". */
function emptyError(r: ScrapeResult): RequestError | null {
  if (r.parsed.families.length > 0) return null;
  const first = r.parsed.errors[0];
  return {
    kind: 'protocol',
    code: 'bad-frame',
    status: r.status,
    message: `No metrics parsed (0 families${first ? `; line ${first.line}: ${first.message}` : ', empty body'}).`,
  };
}

export async function runMetrics(url: string, o: MetricsCliOptions): Promise<number> {
  const headers: Record<string, string> = {};
  for (const h of o.header ?? []) {
    const i = h.indexOf(':');
    if (i <= 0) return usage(o.json, `--header must be "Name: value", got "${h}"`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  const prom = o.prometheusSelector !== undefined;
  // An inference server's key is not sent to Prometheus (--header still is: a proxy's auth).
  const apiKey = prom ? undefined : (o.apiKey ?? process.env.TOKENSCOPE_API_KEY);
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (!(o.interval >= 50)) return usage(o.json, `--interval must be at least 50 ms, got ${o.interval}`);
  const target: ScrapeTarget = { url, headers, intervalMs: o.interval, insecureTls: o.insecure === true };
  if (prom) target.prometheus = { selector: o.prometheusSelector ?? '' };
  // One-shot: a slow or distant endpoint gets 10 s; watch mode keeps the scraper's interval-based default.
  if (o.timeout !== undefined) target.timeoutMs = o.timeout;
  else if (!o.watch) target.timeoutMs = 10_000;
  const digests = new ScrapeDigestBuilder(o.model !== undefined ? { model: o.model } : {});
  let lastOk = false;
  let failures = 0;
  let where = url;
  const onScrape = (r: ScrapeResult): void => {
    lastOk = false;
    const empty = emptyError(r);
    if (empty !== null) return printError(o.json, r.url, empty);
    const digest = digests.next(r);
    const text = o.json
      ? JSON.stringify(digest) + '\n'
      : formatScrapeDigest(digest, { showTime: o.watch === true });
    out(o.watch && !o.json ? text + '\n' : text);
    lastOk = true;
  };
  // Watch mode: the scraper retries failures with backoff; print each failure once, as it happens.
  const onState = (s: Readonly<ScrapeState>): void => {
    if (s.failures === failures || s.lastError === null) return;
    failures = s.failures;
    lastOk = false;
    printError(o.json, where, s.lastError);
    if (!o.json && s.nextAttemptAt !== null)
      process.stderr.write(`  retrying in ${Math.round(s.nextAttemptAt - performance.now())} ms\n`);
  };
  let scraper: Scraper;
  try {
    scraper = new Scraper(target, { onScrape, onState });
  } catch (e) {
    return usage(
      o.json,
      prom
        ? `--prometheus: ${errorMessage(e)}`
        : `invalid URL "${url}": ${errorMessage(e)} (use http://host:port or its /metrics URL)`,
    );
  }
  where = scraper.url.href;
  if (!o.watch) {
    const r = await scraper.scrapeOnce();
    if (r !== null && !('parsed' in r)) printError(o.json, where, r); // null: Prometheus mode only
    return lastOk ? 0 : 1;
  }
  scraper.start();
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  scraper.stop();
  return lastOk ? 0 : 1;
}
