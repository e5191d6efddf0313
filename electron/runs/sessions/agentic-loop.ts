/**
 * One agentic session as the runner plays it (workload `tools.agentic`, docs/load.md "Tool calls
 * and agentic loops"): step 1 sends the item's prompt with its tools; when the answer makes tool
 * calls, the tool "runs" for the injected latency, then the next step sends the conversation so far
 * — the assistant's calls as the server streamed them and one seeded result per call — and so on,
 * up to `maxSteps`. A step answered without a call ends the session; a model that keeps calling
 * stops at the cap (the summary counts those sessions). A failed step ends it too. Like a
 * multi-turn conversation it holds one concurrency slot throughout; each step is its own line
 * (session, turn = step, toolWaitMs: the wait measured before it).
 */
import type { RequestRecord } from '../../../shared/record.ts';
import { Rng } from '../../../shared/prng.ts';
import type { ChatMessage } from '../../../shared/request.ts';
import type { ToolLatency } from '../../../shared/runs/workload/tools.ts';
import { countChatTokens } from '../../../shared/tokenizer.ts';
import { now } from '../../engine/clock.ts';
import { syntheticText, type PromptItem } from '../prompts/items.ts';
import { buildSpec } from '../request-spec.ts';
import { sleepUntil, Slots } from '../slots.ts';
import type { ConversationDeps } from './session-loop.ts';

/** The tool's wait before step `step` (2 and later) of session `i`, ms. */
function toolLatencyMs(d: ToolLatency, seed: number, i: number, step: number): number {
  if (d.type === 'fixed') return d.ms;
  const rng = new Rng(seed, `tool-latency:${i}:${step}`);
  if (d.type === 'uniform') return d.minMs + rng.next() * (d.maxMs - d.minMs);
  return rng.exponential(d.meanMs);
}

/** The messages after a step whose answer made `rec.toolCalls`: its calls, then a result for each. */
function afterToolCalls(
  messages: readonly ChatMessage[],
  rec: Pick<RequestRecord, 'text' | 'toolCalls'>,
  result: (k: number) => string,
  step: number,
): ChatMessage[] {
  const calls = (rec.toolCalls ?? []).map((c) => ({
    id: c.id || `call_${step}_${c.index}`,
    name: c.name,
    arguments: c.arguments,
  }));
  return [
    ...messages,
    { role: 'assistant', content: rec.text, toolCalls: calls },
    ...calls.map((c, k): ChatMessage => ({ role: 'tool', content: result(k), toolCallId: c.id })),
  ];
}

/** Session `i`: its steps, holding one slot. */
export async function agenticTask(
  i: number,
  a: { at: number; arrivedMs: number; slots: Slots; haveSlot: boolean },
  d: ConversationDeps,
): Promise<void> {
  const ag = d.workload.tools?.agentic;
  if (!ag || (!a.haveSlot && !(await a.slots.acquire()))) return;
  const free = new Slots(Infinity); // each step's own slot: the session holds the real one
  const clock = (): number => now() - d.t0;
  const first = d.prompts.at(i);
  let messages: ChatMessage[] = first.messages ?? [{ role: 'user', content: first.prompt ?? '' }];
  let scheduled = a.at;
  let arrived = a.arrivedMs;
  let waited: number | undefined;
  try {
    for (let step = 1; step <= ag.maxSteps; step++) {
      if (step > 1) {
        const endedAt = clock();
        scheduled = endedAt + toolLatencyMs(ag.toolLatencyMs, d.workload.seed, i, step);
        if (d.durationMs !== null && scheduled >= d.durationMs) return;
        await sleepUntil(d.t0 + scheduled, d.signal);
        if (d.signal.aborted) return;
        arrived = clock();
        waited = arrived - endedAt;
        d.arrived();
      }
      const item: PromptItem = {
        ...first,
        prompt: undefined,
        messages,
        inputTokens: countChatTokens(messages),
      };
      const rec = await d.fire({
        seq: i * 1000 + step - 1,
        warmup: false,
        scheduledMs: scheduled,
        arrivedMs: arrived,
        slots: free,
        haveSlot: false,
        origin: d.t0,
        item,
        spec: buildSpec(d.workload, d.target, item, d.prompts.force),
        session: { index: i, turn: step },
        ...(waited !== undefined ? { toolWaitMs: waited } : {}),
      });
      if (!rec || rec.error || !rec.toolCalls?.length) return;
      const rng = new Rng(d.workload.seed, `tool-result:${i}:${step}`);
      const result = (): string => syntheticText(Math.ceil(ag.resultChars / 3), rng).slice(0, ag.resultChars);
      messages = afterToolCalls(messages, rec, result, step);
    }
  } finally {
    a.slots.release();
  }
}
