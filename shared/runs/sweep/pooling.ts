/**
 * Sweeps of a target that answers whole, not as a token stream (embeddings, rerank:
 * shared/dialects.ts `isNonStreamingDialect`). There is no TTFT, ITL, TPOT or tok/s per user, and
 * output tokens/s is 0 at every load, so what a token sweep draws against output tokens/s is drawn
 * against **request throughput** (achieved req/s) instead, with E2E latency on y, and the knee is
 * the E2E knee on that axis. Request throughput rather than input tokens/s: every such server
 * reports it, it is what the sweep's own load is set in (offered req/s), so the two axes read
 * alike, and it does not depend on where input tokens came from (the server's usage, or the shared
 * tokenizer's estimate when a server reports none); input tokens/s (and inputs/s) are in the
 * table and the file beside it, since a batch's size moves them apart from req/s.
 */
import { isDialectId, isNonStreamingDialect } from '../../dialects.ts';
import type { SloTerm } from './slo.ts';

/** Whether a sweep's target streams tokens (an unknown dialect counts as streaming: older behaviour). */
export function sweepStreams(f: { target?: { dialect: string } | undefined }): boolean {
  const d = f.target?.dialect;
  return !(d !== undefined && isDialectId(d) && isNonStreamingDialect(d));
}

/** The x of the latency curves and of the knee: output tok/s for a stream, req/s otherwise. */
export function throughputLabel(streams: boolean): string {
  return streams ? 'output tok/s' : 'req/s';
}

/**
 * SLO terms a target that answers whole cannot meet or miss (TTFT, ITL, TPOT: no token to time):
 * refused with the field's name, rather than every step failing them.
 */
export function sloTermsProblem(terms: readonly SloTerm[], streams: boolean, field: string): string | null {
  if (streams) return null;
  const bad = terms.filter((t) => t.spec.metric !== 'e2el' && t.spec.metric !== 'failed').map((t) => t.key);
  if (bad.length === 0) return null;
  return (
    `${field}: ${bad.join(', ')}: an embeddings or rerank target answers whole, with no TTFT, ITL or TPOT;` +
    ' use {mean,p50,p90,p99}_e2el_ms and error_rate'
  );
}
