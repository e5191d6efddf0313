/** The schema of a run summary's `tools` (tool-calls.ts says what each number means). */
import { z } from 'zod';

const count = z.number().int().min(0);

/** The summary's `tools` (tool-calls.ts computes it); `stats` is the summary's MetricStats schema, passed in to keep the import one-way. */
export function toolSummarySchema<S extends z.ZodType>(stats: S) {
  return z.object({
    /** Requests that offered tools (or got a call anyway). */
    requests: count,
    /** Of them, those whose answer made at least one call, and those that failed in transport. */
    callingRequests: count,
    errors: count,
    calls: count,
    finishToolCalls: count,
    badJson: count,
    schemaFailures: count,
    unknownTool: count,
    capped: count,
    /** (badJson + schemaFailures + unknownTool) / calls; null without calls. */
    failureRate: z.number().min(0).max(1).nullable(),
    ttftToolMs: stats,
    toolItlMs: stats,
    textItlMs: stats,
    argumentChars: stats,
    agentic: z
      .object({
        sessions: count,
        steps: count,
        /** Sessions whose last step still called a tool at maxSteps: stopped by the cap. */
        cappedSessions: count,
        maxSteps: count,
        sessionMs: stats,
        serverMs: stats,
        toolWaitMs: stats,
        /** Of all sessions' time, the share spent waiting on tools (sum over sum). */
        toolWaitShare: z.number().min(0).max(1).nullable(),
      })
      .optional(),
  });
}
