/**
 * Tool calls put together from their streamed deltas (dialects/types.ts `ToolDelta`): one call per
 * index, id and name from the delta that names them, arguments the fragments concatenated in
 * arrival order. Bounded (shared/tool-calls.ts TOOL_CALL_LIMITS): calls past the cap are dropped,
 * arguments past theirs are cut and the call flagged `capped` — a server that streams without end
 * cannot grow a record without bound through its tool calls.
 */
import type { RequestRecord } from '../../shared/record.ts';
import { TOOL_CALL_LIMITS, type ToolCallRecord } from '../../shared/tool-calls.ts';
import type { ToolDelta } from './dialects/types.ts';

export function addToolDeltas(rec: RequestRecord, deltas: readonly ToolDelta[]): void {
  const calls = (rec.toolCalls ??= []);
  for (const d of deltas) {
    let c: ToolCallRecord | undefined = calls.find((x) => x.index === d.index);
    if (!c) {
      if (calls.length >= TOOL_CALL_LIMITS.calls) continue;
      c = { index: d.index, id: '', name: '', arguments: '' };
      calls.push(c);
    }
    if (d.id && !c.id) c.id = d.id.slice(0, 200);
    // Some servers repeat the name in later deltas; a first name is kept, never concatenated.
    if (d.name && !c.name) c.name = d.name.slice(0, 200);
    if (!d.args || c.capped) continue;
    const room = TOOL_CALL_LIMITS.argumentChars - c.arguments.length;
    if (d.args.length > room) {
      c.arguments += d.args.slice(0, Math.max(0, room));
      c.capped = true;
    } else c.arguments += d.args;
  }
}
