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
import { Rng } from '../../shared/prng.ts';
import type { PromptSource, Sessions } from '../../shared/runs/workload.ts';
import { maxTurnsOf, syntheticConversations } from './conversation.ts';
import { countTextTokens } from '../../shared/tokenizer.ts';
import { loadJsonlPrompts, loadShareGpt, loadShareGptConversations } from './prompt-files.ts';
import { describeDist, sampleLength, type PromptProvider } from './prompt-items.ts';

export type { PromptItem, PromptProvider, PromptStream } from './prompt-items.ts';

// Short, common English words: one token each (with their leading space) in the usual BPE
// vocabularies, so N words ≈ N prompt tokens on real servers too.
const WORDS = (
  'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were ' +
  'we when your can said there use an each which she do how their if will up other about out many then them these so some her would ' +
  'make like him into time has look two more write go see number no way could people my than first water been call who oil its now ' +
  'find long down day did get come made may part over new sound take only little work know place year live me back give most very ' +
  'after thing our just name good sentence man think say great where help through much before line right too mean old any same tell ' +
  'boy follow came want show also around form three small set put end does another well large must big even such because turn here ' +
  'why ask went men read need land home us move try kind hand picture again change off play spell air away animal house'
).split(' ');

/** Deterministic text of about `tokens` tokens: words drawn from `rng`. */
export function syntheticText(tokens: number, rng: Rng): string {
  const out: string[] = [];
  for (let i = 0; i < tokens; i++) out.push(WORDS[rng.int(WORDS.length)]!);
  return out.join(' ');
}

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
  }
}
