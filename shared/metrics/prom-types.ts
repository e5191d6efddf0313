/**
 * The parsed shape of a Prometheus text (0.0.4) or OpenMetrics (1.0) exposition.
 * Pure types: used by the parser, the math, the profiles and the renderer alike.
 */

/** Text-format types plus the OpenMetrics ones (gaugehistogram, stateset, info, unknown). */
export type MetricType =
  | 'counter'
  | 'gauge'
  | 'histogram'
  | 'gaugehistogram'
  | 'summary'
  | 'untyped'
  | 'unknown'
  | 'info'
  | 'stateset';

export const METRIC_TYPES: ReadonlySet<string> = new Set<MetricType>([
  'counter',
  'gauge',
  'histogram',
  'gaugehistogram',
  'summary',
  'untyped',
  'unknown',
  'info',
  'stateset',
]);

export type Labels = Record<string, string>;

export interface Exemplar {
  labels: Labels;
  value: number;
  timestampMs?: number;
}

export interface Sample {
  /** The sample's own name (`x_bucket`, `x_total`, ...), spelled as its family spells it. */
  name: string;
  labels: Labels;
  value: number;
  /** Milliseconds since the epoch; OpenMetrics seconds are converted. Absent when the line had none. */
  timestampMs?: number;
  exemplar?: Exemplar;
}

export interface HistogramBucket {
  /** Upper bound, compared numerically (`1`, `1.0` and `1e0` are the same bound); `+Inf` is Infinity. */
  le: number;
  /** Cumulative count of observations <= le. */
  count: number;
}

/** One label set of a histogram family, with its `_bucket`/`_sum`/`_count` lines gathered. */
export interface HistogramSeries {
  /** The series' labels without `le`. */
  labels: Labels;
  /** Sorted by le, ascending. */
  buckets: HistogramBucket[];
  /** `_sum` (`_gsum` for gaugehistograms); NaN when the exposition omitted it. */
  sum: number;
  /** `_count` (`_gcount`); falls back to the `+Inf` bucket; NaN when neither is present. */
  count: number;
  /** `_created`, in seconds since the epoch, when exposed. */
  createdSec?: number;
}

interface SummaryQuantile {
  quantile: number;
  value: number;
}

/** One label set of a summary family. */
export interface SummarySeries {
  labels: Labels;
  /** Sorted by quantile, ascending. */
  quantiles: SummaryQuantile[];
  sum: number;
  count: number;
  createdSec?: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  /** Unescaped `# HELP` text; '' when absent. */
  help: string;
  /** `# UNIT` (OpenMetrics); '' when absent. */
  unit: string;
  samples: Sample[];
  /** Present for histogram and gaugehistogram families. */
  histograms?: HistogramSeries[];
  /** Present for summary families. */
  summaries?: SummarySeries[];
}

export interface ParseError {
  /** 1-based line number in the body. */
  line: number;
  message: string;
  /** The offending line (truncated to 200 characters). */
  text: string;
}

export type ExpositionFormat = 'text' | 'openmetrics';

export interface ParseResult {
  families: MetricFamily[];
  errors: ParseError[];
  format: ExpositionFormat;
}
