/**
 * `tokenscope metrics PROM_URL --prometheus --selector SEL`: the fleet source from the command
 * line — the same concepts as a direct scrape, read from a Prometheus server's HTTP API for the
 * servers a PromQL label selector picks (`{job="vllm",instance="10.0.0.1:8000"}`), over a range
 * (`/api/v1/query_range`). Prints per concept the last value, min and max over the range; `--json`
 * prints every point. Exit codes: 0 ok; 1 Prometheus failed or had no data; 2 bad arguments.
 */
import { PROFILES, type ProfileId } from '../../shared/metrics/profiles.ts';
import { PromApiClient, queryFleetRange, type FleetResult } from '../metrics/prom-api.ts';
import { errorMessage } from '../../shared/result.ts';

export interface FleetCliOptions {
  selector?: string;
  range?: string;
  step?: string;
  window?: string;
  profile?: string;
  model?: string;
  json?: boolean;
  header?: string[];
  timeout?: number;
  insecure?: boolean;
}

/** PromQL-style durations: 90s, 5m, 1h, 1h30m, 500ms; a bare number is seconds. */
export function parseDurationS(s: string): number | null {
  const t = s.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    total +=
      Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
    matched = re.lastIndex;
  }
  return matched === t.length && matched > 0 ? total : null;
}

const UNITS: Partial<Record<string, string>> = {
  requestsRunning: 'requests',
  requestsWaiting: 'requests',
  kvCacheUsage: '0–1',
  promptTokensTotal: 'tokens',
  generationTokensTotal: 'tokens',
  preemptionsTotal: 'count',
  promptTokensPerSec: 'tok/s',
  generationTokensPerSec: 'tok/s',
  preemptionsPerSec: '/s',
  prefixCacheHitRate: '0–1',
};
const unitOf = (concept: string): string =>
  UNITS[concept] ?? (/(P50|P90|P99|Mean)$/.test(concept) ? 's' : '');

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 0.001 || a >= 1e7)) return v.toExponential(3);
  return Number(v.toPrecision(6)).toString();
}

function textReport(url: string, sel: string, r: FleetResult, rangeS: number, stepS: number): string {
  const rows: string[][] = [];
  for (const [concept, c] of Object.entries(r.concepts)) {
    if (!c) continue;
    if ('error' in c) {
      rows.push([concept, 'error', c.error.message, '', '', '']);
      continue;
    }
    const vs = c.points.map((p) => p.v).filter((v) => Number.isFinite(v));
    if (vs.length === 0) rows.push([concept, 'no data', '', '', '', unitOf(concept)]);
    else
      rows.push([
        concept,
        fmt(c.points[c.points.length - 1]!.v),
        fmt(Math.min(...vs)),
        fmt(Math.max(...vs)),
        String(c.points.length),
        unitOf(concept),
      ]);
  }
  const head = ['concept', 'last', 'min', 'max', 'points', 'unit'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!)))
      .join('  ')
      .trimEnd();
  const name = PROFILES[r.profile]?.label ?? r.profile;
  let s = `Prometheus ${url} · selector ${sel} · ${name} · last ${rangeS} s at ${stepS} s steps\n\n`;
  s += line(head) + '\n' + rows.map(line).join('\n') + '\n';
  for (const warn of r.warnings) s += `warning: ${warn}\n`;
  return s;
}

export async function runFleet(
  url: string,
  o: FleetCliOptions,
  write: (s: string) => void = (s) => void process.stdout.write(s),
): Promise<number> {
  const fail = (code: number, kind: string, message: string): number => {
    if (o.json) write(JSON.stringify({ prometheus: url, error: { kind, message } }) + '\n');
    else process.stderr.write(`error (${kind}): ${message}\n`);
    return code;
  };
  if (!o.selector)
    return fail(2, 'client', '--prometheus needs --selector, e.g. --selector \'{job="vllm"}\'');
  const rangeS = parseDurationS(o.range ?? '5m');
  const stepS = parseDurationS(o.step ?? '15s');
  if (rangeS === null || rangeS <= 0) return fail(2, 'client', `--range: not a duration: ${o.range}`);
  if (stepS === null || stepS <= 0) return fail(2, 'client', `--step: not a duration: ${o.step}`);
  if (rangeS / stepS > 11_000)
    return fail(
      2,
      'client',
      `--range / --step gives ${Math.ceil(rangeS / stepS)} points; Prometheus allows 11,000`,
    );
  if (o.profile !== undefined && !(o.profile in PROFILES))
    return fail(2, 'client', `--profile: one of ${Object.keys(PROFILES).join(', ')}`);
  const headers: Record<string, string> = {};
  for (const h of o.header ?? []) {
    const i = h.indexOf(':');
    if (i <= 0) return fail(2, 'client', `--header must be "Name: value", got "${h}"`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  let client: PromApiClient;
  try {
    client = new PromApiClient({ url, headers, timeoutMs: o.timeout, insecureTls: o.insecure });
  } catch (e) {
    return fail(2, 'client', errorMessage(e));
  }
  const endSec = Date.now() / 1000;
  const r = await queryFleetRange(
    client,
    { selector: o.selector, profile: o.profile as ProfileId | undefined, window: o.window, model: o.model },
    { startSec: endSec - rangeS, endSec, stepSec: stepS },
  );
  if (!r.ok) return fail(1, r.error.kind, r.error.message);
  const withData = Object.values(r.value.concepts).filter(
    (c) => c && !('error' in c) && c.points.length > 0,
  ).length;
  if (o.json) {
    write(
      JSON.stringify({
        prometheus: url,
        selector: o.selector,
        profile: r.value.profile,
        range: { startSec: endSec - rangeS, endSec, stepSec: stepS },
        concepts: r.value.concepts,
        warnings: r.value.warnings,
      }) + '\n',
    );
  } else write(textReport(url, o.selector, r.value, rangeS, stepS));
  if (withData === 0) {
    if (!o.json)
      process.stderr.write(
        `error: Prometheus has no data for ${o.selector} in the last ${rangeS} s (is it scraping that target?)\n`,
      );
    return 1;
  }
  return 0;
}
