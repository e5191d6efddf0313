/**
 * Prometheus text format 0.0.4 as vLLM's prometheus_client (single process) writes it, so that
 * scrapers meet the same fingerprint as against a real vLLM (test-corpus/FORMATS.md §3.3): HELP/TYPE per
 * family, label names sorted, histogram lines in the order buckets, _count, _sum, values in
 * Python float repr (`8.0`, `0.3164893617021277`) switched to Go-style exponents past 6 integer
 * digits (`1.7953184849485586e+09`), and a `_created` gauge family after each counter/histogram.
 */

export type Labels = Record<string, string>;

/** prometheus_client's floatToGoString: Python repr, with Go's earlier switch to exponents. @internal exported for its tests */
export function formatValue(d: number): string {
  if (d === Infinity) return '+Inf';
  if (d === -Infinity) return '-Inf';
  if (Number.isNaN(d)) return 'NaN';
  const s = pyRepr(d);
  const dot = s.indexOf('.');
  if (d > 0 && dot > 6) {
    const mantissa = `${s[0]}.${s.slice(1, dot)}${s.slice(dot + 1)}`.replace(/[0.]+$/, '');
    return `${mantissa}e+${String(dot - 1).padStart(2, '0')}`;
  }
  return s;
}

/** Python's float repr for the ranges metrics use: shortest round-trip digits, always a point. */
function pyRepr(d: number): string {
  if (Object.is(d, -0)) return '-0.0';
  const abs = Math.abs(d);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-4)) {
    // Python: exponent with at least two digits ('1e-05', '1.5e+16')
    const [m = '', e = '0'] = d.toExponential().split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const s = String(d);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

function formatLabels(labels: Labels): string {
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return '';
  const parts = keys.map((k) => `${k}="${escapeLabel(labels[k] ?? '')}"`);
  return `{${parts.join(',')}}`;
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export interface Sample {
  labels: Labels;
  value: number;
}

/** Writes families into one exposition body. */
export class PromWriter {
  private readonly lines: string[] = [];

  family(
    name: string,
    type: 'counter' | 'gauge' | 'histogram',
    help: string,
    samples: readonly Sample[],
    suffix = '',
  ): void {
    this.lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const s of samples)
      this.lines.push(`${name}${suffix}${formatLabels(s.labels)} ${formatValue(s.value)}`);
  }

  /** A counter `name_total` plus its `name_created` gauge family, as prometheus_client does. */
  counter(base: string, help: string, samples: readonly Sample[], createdSec: number): void {
    this.family(`${base}_total`, 'counter', help, samples);
    this.created(base, help, samples, createdSec);
  }

  histogram(name: string, help: string, labels: Labels, h: HistogramData, createdSec: number): void {
    this.lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
    let cum = 0;
    h.bounds.forEach((le, i) => {
      cum += h.counts[i] ?? 0;
      this.lines.push(
        `${name}_bucket${formatLabels({ ...labels, le: formatValue(le) })} ${formatValue(cum)}`,
      );
    });
    this.lines.push(`${name}_bucket${formatLabels({ ...labels, le: '+Inf' })} ${formatValue(h.count)}`);
    this.lines.push(`${name}_count${formatLabels(labels)} ${formatValue(h.count)}`);
    this.lines.push(`${name}_sum${formatLabels(labels)} ${formatValue(h.sum)}`);
    this.created(name, help, [{ labels, value: 0 }], createdSec);
  }

  private created(base: string, help: string, samples: readonly Sample[], createdSec: number): void {
    this.family(
      `${base}_created`,
      'gauge',
      help,
      samples.map((s) => ({ labels: s.labels, value: createdSec })),
    );
  }

  text(): string {
    return this.lines.join('\n') + '\n';
  }
}

/** A Prometheus histogram: finite upper bounds (the +Inf bucket is implicit). */
export class HistogramData {
  readonly counts: number[];
  count = 0;
  sum = 0;

  constructor(readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(v: number): void {
    let i = 0;
    while (i < this.bounds.length && v > (this.bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.count++;
    this.sum += v;
  }
}

/** vLLM's build_1_2_5_buckets(max): 1, 2, 5, 10, 20, 50, ... up to max. */
export function buckets125(max: number): number[] {
  const out: number[] = [];
  for (let exp = 1; ; exp *= 10) {
    for (const m of [1, 2, 5]) {
      if (m * exp > max) return out;
      out.push(m * exp);
    }
  }
}
