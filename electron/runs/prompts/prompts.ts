/**
 * Prompt sources of a workload: what request i sends and how many tokens it asks for.
 * Deterministic: item i depends only on (seed, source, i), so a workload replays identically and
 * a duration run can ask for as many items as it needs. Warm-up items come from their own
 * stream, so warming up never changes (or pre-caches) the measured prompts.
 *
 * Token counts are Tokenscope's estimate (a BPE stand-in shared with the simulator, shared/tokenizer.ts,
 * within ~30 % of real tokenizers for prose); the run prefers the server's `usage` when it
 * reports prompt tokens.
 */
import { Rng } from '../../../shared/prng.ts';
import type { PromptSource, Sessions } from '../../../shared/runs/workload/workload.ts';
import { maxTurnsOf, syntheticConversations } from '../sessions/conversation.ts';
import { countTextTokens } from '../../../shared/tokenizer.ts';
import { loadJsonlPrompts, loadShareGpt, loadShareGptConversations } from './files.ts';
import { describeDist, sampleLength, syntheticText, type PromptProvider } from './items.ts';
import { loadTracePrompts } from './trace.ts';

export type { PromptProvider } from './items.ts';
function syntheticProvider(src: Extract<PromptSource, { type: 'synthetic' }>, seed: number): PromptProvider {
  const prefix = src.prefix ? src.prefix + '\n' : '';
  const prefixTokens = prefix ? countTextTokens(prefix) : 0;
  return {
    description: `synthetic (input ${describeDist(src.inputLen)}, output ${describeDist(src.outputLen)})`,
    size: null,
    force: src.force,
    at(i, stream = 'main') {
      const rng = new Rng(seed, `${stream}:synthetic:${i}`);
      const inLen = sampleLength(src.inputLen, rng);
      const outLen = sampleLength(src.outputLen, rng);
      const prompt = prefix + syntheticText(Math.max(1, inLen - prefixTokens), rng);
      return { prompt, inputTokens: countTextTokens(prompt), outputTokens: outLen };
    },
  };
}

/**
 * Loads a workload's prompt source; file paths resolve against `baseDir` (the workload file's
 * folder). With `sessions`, a provider of whole conversations (conversation.ts).
 */
export async function loadPrompts(
  src: PromptSource,
  seed: number,
  baseDir: string,
  sessions?: Sessions,
): Promise<PromptProvider> {
  if (sessions) {
    if (src.type === 'synthetic')
      return syntheticConversations(syntheticProvider(src, seed), src, sessions, seed, syntheticText);
    if (src.type === 'sharegpt') return loadShareGptConversations(src, maxTurnsOf(sessions), seed, baseDir);
  }
  switch (src.type) {
    case 'synthetic':
      return syntheticProvider(src, seed);
    case 'sharegpt':
      return loadShareGpt(src, seed, baseDir);
    case 'jsonl':
      return loadJsonlPrompts(src, seed, baseDir);
    case 'trace':
      return loadTracePrompts(src, seed, baseDir);
  }
}
