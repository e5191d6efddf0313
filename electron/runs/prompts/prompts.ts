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
import { loadToolPrompts } from './tool-prompts.ts';
import { randomInt } from 'node:crypto';
import { Rng } from '../../../shared/prng.ts';
import { groupOf } from '../../../shared/runs/workload/prefix-groups.ts';
import type { PromptSource, Sessions } from '../../../shared/runs/workload/workload.ts';
import { maxTurnsOf, syntheticConversations } from '../sessions/conversation.ts';
import { countTextTokens } from '../../../shared/tokenizer.ts';
import { loadJsonlPrompts, loadShareGpt, loadShareGptConversations } from './files.ts';
import { describeDist, sampleLength, syntheticText, type PromptProvider } from './items.ts';
import { loadTracePrompts } from './trace.ts';

export type { PromptProvider } from './items.ts';

/** The prefix groups' texts kept for reuse, at most (characters: 64 Mi, ~128 MiB of UTF-16). */
const GROUP_TEXT_MAX_CHARS = 64 * 1024 * 1024;

/** @internal exported for its tests (`maxKeptChars`: the groups' text cache bound) */
export function syntheticProvider(
  src: Extract<PromptSource, { type: 'synthetic' }>,
  seed: number,
  maxKeptChars = GROUP_TEXT_MAX_CHARS,
): PromptProvider {
  const prefix = src.prefix ? src.prefix + '\n' : '';
  const prefixTokens = prefix ? countTextTokens(prefix) : 0;
  const groups = src.prefixGroups;
  // Each group's head (the workload's prefix, then the group's text), made once per stream
  // (warm-up has its own, so warming up never caches the measured prefixes) with its token count,
  // while the kept texts stay under GROUP_TEXT_MAX_CHARS; past that a group's head is made again for
  // each request (the same text: it depends only on the seed), so 100,000 groups of long prefixes
  // cost time, not memory without bound. Counting a 1,024-token head for every request cost ~150 µs
  // of the ~190 µs a prompt took: the count is kept with the text (joinedTokens says why it adds up).
  const groupHeads = new Map<string, GroupHead>();
  let keptChars = 0;
  const groupHead = (stream: string, g: number): GroupHead => {
    const key = `${stream}:${g}`;
    let h = groupHeads.get(key);
    if (h === undefined) {
      const text = prefix + syntheticText(groups!.prefixLen, new Rng(seed, `${stream}:prefix-group:${g}`));
      h = { text, tokens: countTextTokens(text) };
      if (keptChars + text.length <= maxKeptChars) {
        groupHeads.set(key, h);
        keptChars += text.length;
      }
    }
    return h;
  };
  const parts = [`input ${describeDist(src.inputLen)}`, `output ${describeDist(src.outputLen)}`];
  if (groups) parts.push(`${groups.groups} shared prefixes of ${groups.prefixLen} tokens before the input`);
  if (src.cacheBust) parts.push('a unique random prefix per request');
  return {
    description: `synthetic (${parts.join(', ')})`,
    size: null,
    force: src.force,
    at(i, stream = 'main') {
      const rng = new Rng(seed, `${stream}:synthetic:${i}`);
      const inLen = sampleLength(src.inputLen, rng);
      const outLen = sampleLength(src.outputLen, rng);
      if (groups) {
        // The group prefix is extra: inputLen is the suffix, as vLLM's prefix_len + suffix_len.
        const head = groupHead(stream, groupOf(seed, stream, i, groups.groups));
        const tail = '\n' + syntheticText(Math.max(1, inLen), rng);
        return { prompt: head.text + tail, inputTokens: joinedTokens(head, tail), outputTokens: outLen };
      }
      // Cache busting: random words from the OS, not the seed, so a rerun with the same seed
      // shares no block with this one either; counted in the input length.
      const bust = src.cacheBust ? cacheBuster() : '';
      const bustTokens = bust ? countTextTokens(bust) : 0;
      const prompt = bust + prefix + syntheticText(Math.max(1, inLen - prefixTokens - bustTokens), rng);
      return { prompt, inputTokens: countTextTokens(prompt), outputTokens: outLen };
    },
  };
}

/** A prefix group's head text and its token count. */
interface GroupHead {
  text: string;
  tokens: number;
}

/**
 * countTextTokens(head.text + tail) from the head's kept count and the tail's own. The shared
 * tokenizer's matches run left to right and each ends at a boundary its next character decides; a
 * head that ends in a non-space character ends its last match there whatever follows it, and a
 * tail that starts with whitespace starts a fresh match (the whitespace joins its first token). So
 * the whole text's matches are the head's followed by the tail's. A head ending in whitespace
 * (only an empty one here: the group's words end in a letter) is counted whole.
 * @internal exported for its tests
 */
export function joinedTokens(head: GroupHead, tail: string): number {
  const last = head.text.charCodeAt(head.text.length - 1);
  const headEndsInSpace = head.text.length === 0 || /\s/.test(String.fromCharCode(last));
  if (headEndsInSpace || !/^\s/.test(tail)) return countTextTokens(head.text + tail);
  return head.tokens + countTextTokens(tail);
}

/**
 * Twelve words drawn by the OS's CSPRNG and a newline (~12 tokens, ~89 bits: no two of any number
 * of runs collide in practice): the first KV block differs from every other prompt's.
 */
function cacheBuster(): string {
  return syntheticText(12, { int: (n) => randomInt(n) }) + '\n';
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
    case 'tools':
      return loadToolPrompts(src, seed, baseDir);
  }
}
