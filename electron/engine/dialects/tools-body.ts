/**
 * Tools in request bodies, in each API's own shape, and the turns of an agentic session that carry
 * tool calls and their results back:
 * - OpenAI chat (vLLM, SGLang, …): `tools: [{type:"function", function:{name, description,
 *   parameters}}]`, `tool_choice: "auto"|"required"|"none"|{type:"function", function:{name}}`;
 *   an assistant message with `tool_calls: [{id, type:"function", function:{name, arguments}}]`,
 *   answered by `{role:"tool", tool_call_id, content}`.
 * - Anthropic Messages: `tools: [{name, description, input_schema}]`, `tool_choice: {type:
 *   "auto"|"any"|"none"|"tool", name}`; the call is an assistant `tool_use` block (`input` an
 *   object), the result a user `tool_result` block.
 * - Responses: `tools: [{type:"function", name, description, parameters}]`, `tool_choice` as chat's
 *   but `{type:"function", name}`; calls and results are input items `function_call` (`call_id`,
 *   `arguments`) and `function_call_output` (`call_id`, `output`).
 */
import type { ChatMessage, RequestSpec } from '../../../shared/request.ts';
import type { ToolCallMade } from '../../../shared/tool-calls.ts';
import { defined, type Obj } from './common.ts';

const desc = (d: string | undefined): Obj => (d !== undefined ? { description: d } : {});

export function openAiChatToolFields(spec: RequestSpec): Obj {
  if (!spec.tools || spec.tools.length === 0) return {};
  const c = spec.toolChoice;
  return defined({
    tools: spec.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, ...desc(t.description), parameters: t.parameters },
    })),
    tool_choice: typeof c === 'object' ? { type: 'function', function: { name: c.name } } : c,
  });
}

/** Chat messages as OpenAI chat takes them, tool calls and results included. */
export function openAiChatMessages(messages: readonly ChatMessage[]): Obj[] {
  return messages.map((m) => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0)
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    return { role: m.role, content: m.content };
  });
}

export function anthropicToolFields(spec: RequestSpec): Obj {
  if (!spec.tools || spec.tools.length === 0) return {};
  const c = spec.toolChoice;
  return defined({
    tools: spec.tools.map((t) => ({ name: t.name, ...desc(t.description), input_schema: t.parameters })),
    tool_choice:
      c === undefined
        ? undefined
        : typeof c === 'object'
          ? { type: 'tool', name: c.name }
          : { type: c === 'required' ? 'any' : c },
  });
}

/** A call's arguments as the object Anthropic's `tool_use.input` is ({} when they do not parse). */
function inputOf(c: ToolCallMade): unknown {
  try {
    const v: unknown = JSON.parse(c.arguments);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Non-system messages as Anthropic takes them: tool calls as tool_use blocks, results as user tool_result blocks. */
export function anthropicMessageList(messages: readonly ChatMessage[]): Obj[] {
  return messages.map((m) => {
    // A tool message that answers no call (a plain transcript) stays a user turn, as before.
    if (m.role === 'tool' && !m.toolCallId) return { role: 'user', content: m.content };
    if (m.role === 'tool')
      return {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content }],
      };
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0)
      return {
        role: 'assistant',
        content: [
          ...(m.content ? [{ type: 'text', text: m.content }] : []),
          ...m.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: inputOf(c) })),
        ],
      };
    return { role: m.role, content: m.content };
  });
}

export function responsesToolFields(spec: RequestSpec): Obj {
  if (!spec.tools || spec.tools.length === 0) return {};
  const c = spec.toolChoice;
  return defined({
    tools: spec.tools.map((t) => ({
      type: 'function',
      name: t.name,
      ...desc(t.description),
      parameters: t.parameters,
    })),
    tool_choice: typeof c === 'object' ? { type: 'function', name: c.name } : c,
  });
}

/** Messages as Responses input items: tool calls as function_call items, results as function_call_output. */
export function responsesInputItems(messages: readonly ChatMessage[]): Obj[] {
  const out: Obj[] = [];
  for (const m of messages) {
    if (m.role === 'tool')
      out.push({ type: 'function_call_output', call_id: m.toolCallId ?? '', output: m.content });
    else if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      if (m.content) out.push({ role: 'assistant', content: m.content });
      for (const c of m.toolCalls)
        out.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments });
    } else out.push({ role: m.role, content: m.content });
  }
  return out;
}
