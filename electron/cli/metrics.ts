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
import type { MetricsEndpoint, MetricsRole } from '../../shared/metrics/roles.ts';

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
  /** `--metrics-endpoint ROLE=URL`: a disaggregated deployment's endpoints, each under its role. */
  metricsEndpoint?: MetricsEndpoint[];
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

/** One endpoint watched: its scraper, and whether its last attempt printed numbers. */
interface Watched {
  scraper: Scraper;
  lastOk: () => boolean;
}

/**
 * The scraper of one endpoint, printing each scrape (with `role`: a section per role in text, a
 * `role` field in --json) and each failure once; or the usage error for a URL it cannot take.
 */
function watchEndpoint(
  url: string,
  target: ScrapeTarget,
  o: MetricsCliOptions,
  role: MetricsRole | null,
): Watched | string {
  const digests = new ScrapeDigestBuilder(o.model !== undefined ? { model: o.model } : {});
  let lastOk = false;
  let failures = 0;
  let where = url;
  const onScrape = (r: ScrapeResult): void => {
    lastOk = false;
    const empty = emptyError(r);
    if (empty !== null) return printError(o.json, r.url, empty);
    const digest = digests.next(r);
    const body = o.json
      ? JSON.stringify(role ? { role, ...digest } : digest) + '\n'
      : formatScrapeDigest(digest, { showTime: o.watch === true });
    const text = role && !o.json ? `[${role}] ${body}` : body;
    out(o.watch && !o.json ? text + '\n' : text);
    lastOk = true;
  };
  // Watch mode: the scraper retries failures with backoff; print each failure once, as it happens.
  const onState = (s: Readonly<ScrapeState>): void => {
    if (s.failures === failures || s.lastError === null) return;
    failures = s.failures;
    lastOk = false;
    printError(o.json, role ? `[${role}] ${where}` : where, s.lastError);
    if (!o.json && s.nextAttemptAt !== null)
      process.stderr.write(`  retrying in ${Math.round(s.nextAttemptAt - performance.now())} ms\n`);
  };
  let scraper: Scraper;
  try {
    scraper = new Scraper(target, { onScrape, onState });
  } catch (e) {
    return target.prometheus
      ? `--prometheus: ${errorMessage(e)}`
      : `invalid URL "${url}": ${errorMessage(e)} (use http://host:port or its /metrics URL)`;
  }
  where = scraper.url.href;
  return { scraper, lastOk: () => lastOk };
}

/**
 * `tokenscope metrics URL`, or a disaggregated deployment's endpoints with their roles
 * (`--metrics-endpoint prefill=URL --metrics-endpoint decode=URL`, the shape of a target's
 * metricsEndpoints): each scraped on its own, printed under its role. URL, when given with them, is
 * the `server` role. Exit 0 when every endpoint's last attempt printed numbers.
 */
export async function runMetrics(url: string | undefined, o: MetricsCliOptions): Promise<number> {
  const headers: Record<string, string> = {};
  for (const h of o.header ?? []) {
    const i = h.indexOf(':');
    if (i <= 0) return usage(o.json, `--header must be "Name: value", got "${h}"`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  const prom = o.prometheusSelector !== undefined;
  const roles = o.metricsEndpoint ?? [];
  if (prom && roles.length > 0)
    return usage(o.json, '--metrics-endpoint scrapes servers directly: not with --prometheus');
  // A role's URL is its metrics URL as given (a disaggregated server serves several paths).
  const endpoints: { url: string; role: MetricsRole | null; exact: boolean }[] = [
    ...(url === undefined ? [] : [{ url, role: roles.length ? ('server' as const) : null, exact: false }]),
    ...roles.map((e) => ({ ...e, exact: true })),
  ];
  if (endpoints.length === 0)
    return usage(o.json, 'give a server URL, or its endpoints with --metrics-endpoint ROLE=URL');
  // An inference server's key is not sent to Prometheus (--header still is: a proxy's auth).
  const apiKey = prom ? undefined : (o.apiKey ?? process.env.TOKENSCOPE_API_KEY);
  // The key goes to the server's URL only, as a run's role endpoints get none (--header goes to all).
  const keyed = apiKey ? { ...headers, authorization: `Bearer ${apiKey}` } : headers;
  if (!(o.interval >= 50)) return usage(o.json, `--interval must be at least 50 ms, got ${o.interval}`);
  const watched: Watched[] = [];
  for (const e of endpoints) {
    const target: ScrapeTarget = {
      url: e.url,
      headers: e.exact ? headers : keyed,
      intervalMs: o.interval,
      insecureTls: o.insecure === true,
    };
    if (e.exact) target.metricsPath = e.url;
    if (prom) target.prometheus = { selector: o.prometheusSelector ?? '' };
    // One-shot: a slow or distant endpoint gets 10 s; watch mode keeps the scraper's interval-based default.
    if (o.timeout !== undefined) target.timeoutMs = o.timeout;
    else if (!o.watch) target.timeoutMs = 10_000;
    const w = watchEndpoint(e.url, target, o, e.role);
    if (typeof w === 'string') return usage(o.json, w);
    watched.push(w);
  }
  const allOk = (): number => (watched.every((w) => w.lastOk()) ? 0 : 1);
  if (!o.watch) {
    // In the order listed: each endpoint's section whole, never interleaved.
    for (const w of watched) {
      const r = await w.scraper.scrapeOnce();
      if (r !== null && !('parsed' in r)) printError(o.json, w.scraper.url.href, r); // null: Prometheus mode only
    }
    return allOk();
  }
  for (const w of watched) w.scraper.start();
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  for (const w of watched) w.scraper.stop();
  return allOk();
}
