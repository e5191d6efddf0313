/**
 * Speculative decoding over a run, from the server's /metrics (shared/metrics/spec-decode.ts
 * computes it; docs/metrics.md "Speculative decoding" defines each number after vLLM's and
 * SGLang's source): the `server.specDecode` part of a run's summary.
 */
import { z } from 'zod';
import type { SpecDecodeWindow } from '../../metrics/spec-decode.ts';
import type { SameType } from '../../same-type.ts';

const numN = z.number().nullable();

export const SpecDecodeSummarySchema = z.object({
  /** 'counters': vLLM's (or llama.cpp's) counter increases; 'gauges': SGLang's gauges averaged. */
  source: z.enum(['counters', 'gauges']),
  /** Verification steps (one per request and step), draft tokens and accepted ones; null with gauges. */
  drafts: numN,
  draftTokens: numN,
  acceptedTokens: numN,
  /** Accepted / draft tokens, 0–1. */
  acceptanceRate: numN,
  /** 1 + accepted / drafts: tokens a step yields, the bonus token included. */
  meanAcceptanceLength: numN,
  /** Per draft position: drafts whose first i + 1 tokens were accepted / drafts, 0–1. */
  perPosition: z.array(z.number()).max(64).nullable(),
  /** Scrapes the window spans (gauges: the values averaged). */
  scrapes: z.number().int().min(0),
});
export type SpecDecodeSummary = z.output<typeof SpecDecodeSummarySchema>;
// The window the metrics code computes is the summary as stored: one shape.
const specDecodeSame: SameType<SpecDecodeSummary, SpecDecodeWindow> = true;
void specDecodeSame;
