/**
 * Tool calling (workload `tools`, docs/load.md "Tool calls and agentic loops"): the tools a request
 * offers, the calls a streamed answer made, and the check of each call's arguments against its
 * tool's schema. Pure: the engine accumulates calls, the run file's line keeps their check, the
 * summary counts them.
 */
import { validateJson, type JsonSchema } from './json-schema-lite.ts';

/** A function tool: name, what it does, and its arguments' JSON schema (json-schema-lite.ts's subset). */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: JsonSchema;
}

/** `auto` (the model decides), `required` (some tool), `none`, or one named tool. */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** A call as it goes back to the server in the next turn of an agentic session. */
export interface ToolCallMade {
  id: string;
  name: string;
  arguments: string;
}

/**
 * One tool call of a streamed answer, put together from its deltas (OpenAI/vLLM: by
 * `tool_calls[].index`; Anthropic: by content block; Responses: by output item): its id and name
 * from the first delta, its arguments the concatenated fragments.
 */
export interface ToolCallRecord {
  index: number;
  id: string;
  name: string;
  arguments: string;
  /** The arguments grew past the record's limit: the rest was not kept (and the check says so). */
  capped?: boolean;
}

/** Calls kept per request, and argument characters per call: past them, the rest is dropped and flagged. */
export const TOOL_CALL_LIMITS = { calls: 64, argumentChars: 1_000_000 } as const;

/**
 * The verdict on one call: `ok`; `bad-json` (the arguments do not parse); `schema` (they parse
 * but break the tool's schema); `unknown-tool` (no tool of that name was offered); `capped` (too
 * large to keep, not checked).
 */
type ToolCallCheck = 'ok' | 'bad-json' | 'schema' | 'unknown-tool' | 'capped';

interface CheckedToolCall {
  name: string;
  argumentChars: number;
  check: ToolCallCheck;
  /** Why it failed (the parser's message, or the schema path), 200 characters at most. */
  problem?: string;
}

/** The check of one call against the tools offered. Empty arguments are `{}` (a call with no parameters). */
export function checkToolCall(call: ToolCallRecord, tools: readonly ToolSpec[]): CheckedToolCall {
  const base = { name: call.name.slice(0, 200), argumentChars: call.arguments.length };
  if (call.capped) return { ...base, check: 'capped' };
  let args: unknown;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (e) {
    return { ...base, check: 'bad-json', problem: String(e instanceof Error ? e.message : e).slice(0, 200) };
  }
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { ...base, check: 'unknown-tool', problem: `no tool named "${base.name}" was offered` };
  const p = validateJson(args, tool.parameters);
  return p ? { ...base, check: 'schema', problem: p.slice(0, 200) } : { ...base, check: 'ok' };
}
