/**
 * Shared prefixes in synthetic prompts, with the prefix-cache hit ratio they should give known before
 * the run. As vLLM's prefix-repetition dataset (vllm/benchmarks/datasets.py
 * `PrefixRepetitionRandomDataset`: `num_prefixes` prefixes of `prefix_len` tokens, each followed by
 * a `suffix_len`-token suffix, shuffled), except that the group of request i is drawn from the seed
 * (a run of any length or duration, every item depending only on (seed, i)), not a shuffled list.
 *
 * The expected hits are an upper bound under stated assumptions: the server caches full KV blocks
 * (vLLM: 16 tokens) of a prompt once computed, keeps every group's prefix (a cache large enough for
 * `groups × prefixLen` tokens), and a group's second request arrives after its first was prefilled
 * (requests of one group admitted in the same step all miss). Tokens are Tokenscope's estimate
 * (shared/tokenizer.ts), exact on the simulator, within ~30 % on real tokenizers; a chat template's
 * leading tokens shift the block boundaries by a few tokens. The measured truth is what the server
 * reports per request (`cached_tokens`) and in its /metrics.
 */
import { Rng } from '../../prng.ts';

/** vLLM's default KV block size (--block-size 16); SGLang's radix cache matches per token. */
const KV_BLOCK_TOKENS = 16;

export interface PrefixGroups {
  groups: number;
  prefixLen: number;
}

/** The prefix group request `i` of a stream uses: uniform over the groups, from the seed. */
export function groupOf(seed: number, stream: string, i: number, groups: number): number {
  return new Rng(seed, `${stream}:prefix-group-of:${i}`).int(groups);
}

/** Prompt tokens a later request of a group finds cached: the prefix's full blocks. */
export function cachedPerHit(prefixLen: number, blockTokens = KV_BLOCK_TOKENS): number {
  return Math.floor(prefixLen / blockTokens) * blockTokens;
}

export interface ExpectedHits {
  /** Requests that find their group's prefix cached (all but each group's first). */
  hitRequests: number;
  /** Prompt tokens expected from the cache. */
  cachedTokens: number;
  /** cachedTokens ÷ all prompt tokens of the n requests. */
  ratio: number;
}

/**
 * What the first `n` measured requests should find cached, given each request's prompt tokens
 * (`promptTokens(i)`, the source's own estimate).
 */
export function expectedHits(
  g: PrefixGroups,
  seed: number,
  n: number,
  promptTokens: (i: number) => number,
): ExpectedHits {
  const seen = new Set<number>();
  let hitRequests = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += promptTokens(i);
    const k = groupOf(seed, 'main', i, g.groups);
    if (seen.has(k)) hitRequests++;
    else seen.add(k);
  }
  const cachedTokens = hitRequests * cachedPerHit(g.prefixLen);
  return { hitRequests, cachedTokens, ratio: total > 0 ? cachedTokens / total : 0 };
}

/** The ratio a long run tends to (every group seen): cached prefix ÷ mean prompt. */
export function steadyRatio(g: PrefixGroups, meanPromptTokens: number): number {
  return meanPromptTokens > 0 ? cachedPerHit(g.prefixLen) / meanPromptTokens : 0;
}
