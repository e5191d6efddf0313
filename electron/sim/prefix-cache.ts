/**
 * The simulator's prefix cache, the way vLLM's automatic prefix caching behaves from the outside:
 * a prompt is cut into full KV blocks (16 tokens), each block keyed by a hash of itself and every
 * token before it; a new prompt reuses its longest run of leading blocks already cached, and only
 * the rest is prefilled. Bounded: an LRU of at most kvCacheTokens / 16 block keys (what the KV
 * cache could hold), so memory stays a few MB whatever the load.
 *
 * Simplifications (docs/load.md "Multi-turn sessions"): a prompt's blocks are cached when it is admitted,
 * the generated answer's are not (vLLM caches those too; here the answer comes back as part of the
 * next turn's prompt and is cached then), and running sequences' blocks may be evicted like any other.
 */
import { hash32 } from '../../shared/prng.ts';
import { BOS_TOKENS, type ChatMessageLike } from '../../shared/tokenizer.ts';
import { KV_BLOCK_TOKENS } from './types.ts';

// The stand-in tokenizer's pieces (shared/tokenizer.ts): a word with its leading space, or one symbol.
const TOKEN_RE = /\s*[\p{L}\p{M}\p{N}_']+|\s*[^\s\p{L}\p{M}\p{N}_']|\s+$/gu;

/** What a request's prompt is, for the cache: chat messages (templated) or raw text. */
export type PromptContent = { messages: readonly ChatMessageLike[] } | { text: string };

/** The prompt's tokens as strings, in order: BOS, then a Llama-3-style template around each message. */
function tokensOf(p: PromptContent): string[] {
  const out: string[] = [];
  for (let i = 0; i < BOS_TOKENS; i++) out.push('<bos>');
  const text = (t: string): void => {
    for (const m of t.matchAll(TOKEN_RE)) {
      const piece = m[0];
      // Long words cost a token per 8 characters, as the tokenizer counts them.
      if (piece.trimStart().length > 8)
        for (let k = 0; k < piece.length; k += 8) out.push(piece.slice(k, k + 8));
      else out.push(piece);
    }
  };
  if ('text' in p) {
    text(p.text);
    return out;
  }
  const header = (role: string): void => void out.push('<|start|>', role, '<|end|>', '\n\n');
  for (const m of p.messages) {
    header(m.role);
    text(m.content);
    out.push('<|eot|>');
  }
  header('assistant'); // the generation prompt: the next turn's assistant message starts the same way
  return out;
}

/**
 * Keys of the prompt's full blocks, each chained to the one before (vLLM's block hash includes its
 * parent's): two prompts share block k's key only when their first (k + 1) · 16 tokens agree.
 * Two 32-bit hashes per key: collisions are out of reach at any cache size the sim allows.
 */
export function blockKeys(p: PromptContent): string[] {
  const tokens = tokensOf(p);
  const keys: string[] = [];
  let parent = '';
  for (let b = 0; (b + 1) * KV_BLOCK_TOKENS <= tokens.length; b++) {
    const block =
      parent + '\u0000' + tokens.slice(b * KV_BLOCK_TOKENS, (b + 1) * KV_BLOCK_TOKENS).join('\u0001');
    parent = hash32(block).toString(36) + '.' + hash32(block, 0x9e3779b9).toString(36);
    keys.push(parent);
  }
  return keys;
}

export class PrefixCache {
  /** Insertion order is recency: a hit or an insert moves the key to the end; eviction takes the front. */
  private readonly lru = new Map<string, true>();

  constructor(readonly capacityBlocks: number) {}

  get size(): number {
    return this.lru.size;
  }

  /**
   * Admits a prompt: how many of its tokens were cached (leading full blocks found, at most
   * promptTokens − 1: vLLM always computes the last prompt token to get logits), then caches
   * all its blocks.
   */
  admit(keys: readonly string[], promptTokens: number): number {
    let hits = 0;
    while (hits < keys.length && this.lru.has(keys[hits]!)) hits++;
    for (const k of keys) {
      this.lru.delete(k);
      this.lru.set(k, true);
    }
    while (this.lru.size > this.capacityBlocks) this.lru.delete(this.lru.keys().next().value!);
    return Math.max(0, Math.min(hits * KV_BLOCK_TOKENS, promptTokens - 1));
  }

  clear(): void {
    this.lru.clear();
  }
}
