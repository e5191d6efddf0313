/**
 * A model-mix run's numbers by model (by-model.ts): declared apart from schema.ts so that by-model.ts,
 * which runs the summary itself on each model's requests, and schema.ts import it without a cycle.
 */
import { z } from 'zod';

const count = z.number().int().min(0);
const nonNeg = z.number().min(0);

/** mean/median/std/percentiles (the summary's MetricStats, read back as schema.ts does). */
const Stats = z
  .object({
    count: count.nullable(),
    mean: z.number(),
    median: z
      .number()
      .nullable()
      .transform((v) => v ?? NaN),
    std: z
      .number()
      .nullable()
      .transform((v) => v ?? NaN),
    min: z.number().nullable(),
    max: z.number().nullable(),
    p90: z.number().nullable(),
    p95: z.number().nullable(),
    p99: z.number().nullable(),
    p999: z.number().nullable(),
  })
  .nullable();

/** One model's measured requests: the run's own statistics over them alone. */
export const ModelRowSchema = z.object({
  model: z.string(),
  requests: count,
  failed: count,
  /** Of the run's measured requests, 0…1. */
  share: z.number().min(0).max(1),
  ttft: Stats,
  tpot: Stats,
  itl: Stats,
  e2el: Stats,
  /** Successful requests and output tokens per second of the whole run's duration. */
  requestThroughput: nonNeg,
  outputThroughput: nonNeg,
  totalOutputTokens: nonNeg,
  /** Failed requests by `kind/code`. */
  errors: z.record(z.string(), count),
});
export type ModelRow = z.output<typeof ModelRowSchema>;
