/**
 * Tool calling in the workload file (docs/load.md "Tool calls and agentic loops"): the function
 * tools every request offers, `tool_choice`, and agentic sessions (the model's tool call → a tool
 * result after an injected latency → the next step with the result appended, up to `maxSteps`).
 * A tool's `parameters` must be a schema in json-schema-lite.ts's subset: refused at load, by
 * path, otherwise — so the argument check is never weaker than what the user wrote.
 */
import { z } from 'zod';
import { schemaProblem, type JsonSchema } from '../../json-schema-lite.ts';
import type { ToolSpec } from '../../tool-calls.ts';

/** Caps: tools per request, steps per agentic session, a tool result's size. */
const TOOL_LIMITS = { tools: 128, steps: 64, resultChars: 100_000, schemaChars: 100_000 } as const;

const TimerMs = z
  .number()
  .min(0)
  .max(2 ** 31 - 1);

const ToolDef = z
  .object({
    /** OpenAI's rule for function names: letters, digits, _ and -, at most 64. */
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - (1–64)'),
    description: z.string().max(10_000).optional(),
    parameters: z.record(z.string(), z.unknown()).superRefine((s, ctx) => {
      const p = schemaProblem(s);
      if (p) ctx.addIssue({ code: 'custom', message: p });
      else if (JSON.stringify(s).length > TOOL_LIMITS.schemaChars)
        ctx.addIssue({ code: 'custom', message: `at most ${TOOL_LIMITS.schemaChars} characters of JSON` });
    }),
  })
  .strict()
  .transform((t): ToolSpec => ({ ...t, parameters: t.parameters as JsonSchema }));

const ToolChoiceSchema = z.union([
  z.enum(['auto', 'required', 'none']),
  z.object({ name: z.string().min(1).max(64) }).strict(),
]);

/** A tool's wait before its result: fixed ms, uniform, or exponential (a bare number is fixed). */
export const ToolLatency = z.preprocess(
  (v) => (typeof v === 'number' ? { type: 'fixed', ms: v } : v),
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('fixed'), ms: TimerMs }).strict(),
    z
      .object({ type: z.literal('uniform'), minMs: TimerMs, maxMs: TimerMs })
      .strict()
      .refine((d) => d.minMs <= d.maxMs, { message: 'minMs must be ≤ maxMs', path: ['maxMs'] }),
    z.object({ type: z.literal('exponential'), meanMs: TimerMs }).strict(),
  ]),
);
export type ToolLatency = z.output<typeof ToolLatency>;

const Agentic = z
  .object({
    /** Steps (requests) per session at most: a model that keeps calling tools stops here, and the run says so. */
    maxSteps: z.number().int().min(1).max(TOOL_LIMITS.steps, `at most ${TOOL_LIMITS.steps} steps`).default(4),
    /** How long the tool takes before its result is sent back. */
    toolLatencyMs: ToolLatency.default({ type: 'fixed', ms: 100 }),
    /** Characters of the tool's result (a seeded text), appended as the tool message. */
    resultChars: z.number().int().min(0).max(TOOL_LIMITS.resultChars).default(200),
  })
  .strict();

export const ToolsWorkload = z
  .object({
    /** Tools offered with every request (a tools dataset's lines bring their own; these are added). */
    definitions: z.array(ToolDef).max(TOOL_LIMITS.tools, `at most ${TOOL_LIMITS.tools} tools`).default([]),
    choice: ToolChoiceSchema.default('auto'),
    /** Agentic sessions: each of `requests` is a session of up to maxSteps requests. */
    agentic: Agentic.optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    t.definitions.forEach((d, i) => {
      if (seen.has(d.name))
        ctx.addIssue({
          code: 'custom',
          path: ['definitions', i, 'name'],
          message: `"${d.name}" is defined twice`,
        });
      seen.add(d.name);
    });
    const c = t.choice;
    if (typeof c === 'object' && t.definitions.length > 0 && !seen.has(c.name))
      ctx.addIssue({
        code: 'custom',
        path: ['choice', 'name'],
        message: `no tool named "${c.name}" is defined`,
      });
  });

/** A line of a tools dataset (JSONL): its prompt, the tools it offers, optionally its choice and output length. */
export const ToolDatasetLine = z
  .object({
    prompt: z.string().min(1).max(1_000_000),
    tools: z.array(ToolDef).min(1).max(TOOL_LIMITS.tools),
    tool_choice: ToolChoiceSchema.optional(),
    output_len: z.number().int().min(1).max(1_048_576).optional(),
  })
  .strict();
export type ToolDatasetLine = z.output<typeof ToolDatasetLine>;
