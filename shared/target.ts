/**
 * A target's settings, declared once: what the store keeps on disk (electron/app/targets-service.ts
 * StoredTarget), what the UI is shown (TargetView, shared/api.ts) and what the engine is given
 * (ResolvedTarget) are this shape plus their own secret-related fields. What the UI sends to save
 * one is TargetInput (shared/api.ts): the same names, validated as user input.
 */
import { z } from 'zod';
import { DIALECT_IDS } from './dialects.ts';
import { METRICS_ROLES } from './metrics/roles.ts';

export const TargetSettings = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  dialect: z.enum(DIALECT_IDS),
  defaultModel: z.string().optional(),
  metricsUrl: z.string().optional(),
  /** Telemetry exporters beside the server (dcgm-exporter, node_exporter), scraped on its clock. */
  telemetryUrls: z.array(z.string()).optional(),
  /** A disaggregated deployment's other metrics endpoints with their roles (shared/metrics/roles.ts). */
  metricsEndpoints: z.array(z.object({ url: z.string(), role: z.enum(METRICS_ROLES) })).optional(),
  /** Server metrics from this Prometheus (with prometheusSelector) instead of the /metrics URL. */
  prometheusUrl: z.string().optional(),
  prometheusSelector: z.string().optional(),
  /** How often server metrics are read while watched (ms). */
  metricsIntervalMs: z.number().optional(),
  /** Per scrape or query (ms). */
  metricsTimeoutMs: z.number().optional(),
  insecureTls: z.boolean().optional(),
});
export type TargetSettings = z.output<typeof TargetSettings>;
