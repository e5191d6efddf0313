import type { RequestRecord } from '../../shared/record.ts';
import type { RequestSpec } from '../../shared/request.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';

/** The `probe --json` object. Key names are a public contract for scripts: add, never rename. */
export function probeJson(rec: RequestRecord, spec: RequestSpec) {
  const s = computeRequestStats(rec);
  return {
    url: rec.url,
    dialect: rec.dialect,
    model: spec.model,
    /** The model the response named (null: none named); another than `model`: probe warns. */
    responseModel: rec.responseModel ?? null,
    status: rec.status,
    serverRequestId: rec.serverRequestId,
    ttftMs: s.ttftMs,
    firstEventMs: s.firstEventMs,
    e2eMs: s.e2eMs,
    tpotMs: s.tpotMs,
    outputTokens: s.outputTokens,
    tokensExact: s.tokensExact,
    tokenSource: s.tokenSource,
    tokenDoubt: s.tokenDoubt,
    chunks: s.contentEvents,
    events: s.events,
    coalescedEvents: s.coalescedEvents,
    // Tokenscope's ITL, as the app shows it: coalesced gaps (same socket read, ~0 ms by
    // construction) left out; vLLM's every-gap lists beside them (shared/stats/request-stats.ts).
    itlMs: s.itlChunkMeasuredMs,
    itlPerTokenMs: s.itlTokenMeasuredMs,
    coalescedGaps: s.coalescedGaps,
    itlEveryGapMs: s.itlChunkMs,
    itlPerTokenEveryGapMs: s.itlTokenMs,
    tokensPerSecond: s.tokensPerSecond,
    finishReason: rec.finishReason,
    usage: rec.usage,
    bytes: rec.bytes,
    reads: rec.reads,
    terminated: rec.terminated,
    phases: rec.phases,
    eventTimesMs: Array.from(rec.events.t.subarray(0, rec.events.n)),
    eventTokens: Array.from(rec.events.tokens.subarray(0, rec.events.n)),
    text: rec.text,
    reasoning: rec.reasoning || undefined,
    error: rec.error
      ? {
          kind: rec.error.kind,
          code: rec.error.code,
          message: rec.error.message,
          status: rec.error.status,
          atMs: rec.error.atMs,
        }
      : null,
  };
}
