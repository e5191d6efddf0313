/**
 * What a request line says about tool calls (shared/tool-calls.ts): how many tools it offered and
 * each call its answer made, with the check of its arguments. Absent: no tools offered and no call.
 */
import { z } from 'zod';
import { TOOL_CALL_LIMITS } from '../../tool-calls.ts';

export const ToolsLineSchema = z.object({
  offered: z.number().int().min(0).max(10_000),
  calls: z
    .array(
      z.object({
        name: z.string().max(200),
        argumentChars: z.number().int().min(0),
        check: z.enum(['ok', 'bad-json', 'schema', 'unknown-tool', 'capped']),
        problem: z.string().max(200).optional(),
      }),
    )
    .max(TOOL_CALL_LIMITS.calls),
});
