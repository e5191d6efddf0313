/**
 * A target's metrics read from a Prometheus server instead of its own /metrics (docs/ARCHITECTURE.md
 * "Server metrics": for fleets, the same concepts from Prometheus' HTTP API). One instant query
 * of a range vector, `{selector}[window]`, returns every series of the selected servers with its
 * raw samples and their real scrape timestamps; the last sample of each series is written back
 * as a text exposition and parsed by the same parser as a direct scrape. So profiles, concepts,
 * rates, windowed quantiles and the explorer work unchanged, summed over the selected instances
 * (as `sum(...)` would in PromQL), and the snapshot is dated by Prometheus' scrape, not by when
 * we asked: rates between snapshots are over the true interval.
 *
 * Prometheus' query API carries no metric types, so they are inferred from names and labels:
 * `x_bucket` series that all carry `le` make `x` a histogram (with `x_sum`, `x_count`,
 * `x_created`); series with `quantile` beside `x_sum`/`x_count` a summary; `_total` a counter;
 * the rest stay untyped.
 */
import { escapeLabelValue } from '../../shared/metrics/prom-escape.ts';
import { selectorText, type Matcher } from '../../shared/metrics/prom-selector.ts';
import type { ApiSeries } from './prom-api-json.ts';

/** Series beyond this are refused: a selector that broad is a mistake, not a target. */
const SNAPSHOT_MAX_SERIES = 50_000;

/**
 * `{job="vllm"}[60s]`. PromQL refuses a selector whose matchers all match the empty string
 * (`{}`), so an empty selector is refused here with a message saying what to write.
 */
export function snapshotQuery(matchers: readonly Matcher[], windowS: number): string {
  if (matchers.length === 0)
    throw new TypeError(
      'A Prometheus source needs a label selector naming the servers, e.g. {job="vllm"} or {instance="gpu-1:8000"}.',
    );
  return `${selectorText(matchers)}[${Math.max(1, Math.round(windowS))}s]`;
}

export interface Snapshot {
  /** The last sample of every fresh series, as a text exposition (0.0.4) with inferred TYPE lines. */
  text: string;
  /** Epoch ms of the newest sample: when Prometheus last scraped the selected servers. */
  lastMs: number;
  /** Median gap between a series' last two samples: Prometheus' scrape interval for these servers. */
  intervalMs: number | null;
  /** Series written. */
  series: number;
  /** Series left out as stale: their last sample is older than 1.5 scrape intervals before lastMs
   * (a server that stopped being scraped, whose old values would otherwise be summed in). */
  stale: number;
}

const LEGAL_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LEGAL_LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function quote(s: string): string {
  return `"${escapeLabelValue(s)}"`;
}

function num(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return Object.is(v, -0) ? '-0' : String(v); // String() is the shortest exact round trip
}

function line(name: string, labels: Record<string, string>, v: number): string {
  const pairs: string[] = [];
  for (const [k, val] of Object.entries(labels)) {
    if (k === '__name__') continue;
    pairs.push(`${LEGAL_LABEL.test(k) ? k : quote(k)}=${quote(val)}`);
  }
  if (!LEGAL_NAME.test(name)) return `{${[quote(name), ...pairs].join(',')}} ${num(v)}`;
  return pairs.length ? `${name}{${pairs.join(',')}} ${num(v)}` : `${name} ${num(v)}`;
}

/** The type of each family, and which family each sample name belongs to. */
function inferTypes(byName: Map<string, ApiSeries[]>): Map<string, { family: string; type: string }> {
  const out = new Map<string, { family: string; type: string }>();
  const allHave = (name: string, label: string): boolean =>
    (byName.get(name) ?? []).every((s) => s.metric[label] !== undefined);
  for (const name of byName.keys()) {
    if (name.endsWith('_bucket') && allHave(name, 'le')) {
      const base = name.slice(0, -'_bucket'.length);
      for (const sfx of ['_bucket', '_sum', '_count', '_created'])
        if (byName.has(base + sfx)) out.set(base + sfx, { family: base, type: 'histogram' });
    }
  }
  for (const name of byName.keys()) {
    if (out.has(name)) continue;
    if (allHave(name, 'quantile') && (byName.has(`${name}_sum`) || byName.has(`${name}_count`))) {
      for (const sfx of ['', '_sum', '_count', '_created'])
        if (byName.has(name + sfx) && !out.has(name + sfx))
          out.set(name + sfx, { family: name, type: 'summary' });
    }
  }
  for (const name of byName.keys()) {
    if (out.has(name)) continue;
    out.set(name, { family: name, type: name.endsWith('_total') ? 'counter' : 'untyped' });
  }
  return out;
}

/** The last sample of each series of a `{selector}[window]` answer, as an exposition. */
export function snapshotExposition(result: readonly ApiSeries[]): Snapshot {
  if (result.length > SNAPSHOT_MAX_SERIES)
    throw new RangeError(
      `The selector matches ${result.length} series (more than ${SNAPSHOT_MAX_SERIES}): narrow it to the servers of this target.`,
    );
  let lastMs = -Infinity;
  const gaps: number[] = [];
  for (const s of result) {
    const n = s.points.length;
    const p = s.points[n - 1];
    if (p === undefined) continue;
    lastMs = Math.max(lastMs, p.t * 1000);
    const q = s.points[n - 2];
    if (q !== undefined) gaps.push((p.t - q.t) * 1000);
  }
  gaps.sort((a, b) => a - b);
  const intervalMs = gaps.length ? (gaps[gaps.length >> 1] as number) : null;
  const freshAfter = intervalMs === null ? -Infinity : lastMs - 1.5 * intervalMs;
  const byName = new Map<string, ApiSeries[]>();
  let stale = 0;
  for (const s of result) {
    const p = s.points[s.points.length - 1];
    const name = s.metric.__name__;
    if (p === undefined || name === undefined) continue;
    if (p.t * 1000 < freshAfter) {
      stale++;
      continue;
    }
    let list = byName.get(name);
    if (list === undefined) byName.set(name, (list = []));
    list.push(s);
  }
  const types = inferTypes(byName);
  const families = new Map<string, { type: string; lines: string[] }>();
  let series = 0;
  for (const [name, list] of byName) {
    const t = types.get(name) ?? { family: name, type: 'untyped' };
    let f = families.get(t.family);
    if (f === undefined) families.set(t.family, (f = { type: t.type, lines: [] }));
    for (const s of list) {
      f.lines.push(line(name, s.metric, (s.points[s.points.length - 1] as { v: number }).v));
      series++;
    }
  }
  const out: string[] = [];
  for (const [family, f] of families) {
    if (f.type !== 'untyped')
      out.push(`# TYPE ${LEGAL_NAME.test(family) ? family : quote(family)} ${f.type}`);
    for (const l of f.lines) out.push(l);
  }
  return {
    text: out.length ? out.join('\n') + '\n' : '',
    lastMs: Number.isFinite(lastMs) ? lastMs : NaN,
    intervalMs,
    series,
    stale,
  };
}
