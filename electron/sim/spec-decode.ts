/**
 * The simulator's speculative mode (`--spec-k K --spec-accept p1,p2,…`), shaped after vLLM V1:
 *
 * - a sequence's first token comes from its prefill step, with no draft (vLLM drafts from the
 *   second step on);
 * - every later step verifies K draft tokens: draft i is accepted with probability p_i when all
 *   before it were (the verifier stops at the first rejection), and the step yields the accepted
 *   run plus one token of the target model (the bonus/recovered token): 1 + a tokens;
 * - the counters are vLLM's (vllm/v1/spec_decode/metrics.py `SpecDecodingStats.observe_draft`,
 *   fed by the scheduler's `update_from_output`): drafts += 1, draft_tokens += K, accepted += a,
 *   accepted_per_pos[i] += 1 for i < a — counted from the verifier's output before the stop check,
 *   so a step that reaches max_tokens or EOS counts its whole accepted run even though the tokens
 *   past the end are dropped (`discarded` keeps how many, so the counters and the stream agree
 *   exactly: Σ (chunk tokens − 1) over drafted chunks + discarded = accepted).
 *
 * So over many steps: per-position rate i = p_1·…·p_(i+1), mean acceptance length = 1 + Σ of
 * those, acceptance rate = that Σ / K. The draws come from one seeded stream per request (its text
 * seed), so a request's chunk pattern does not depend on the load.
 */
import { Rng } from '../../shared/prng.ts';
import type { PromWriter, Labels } from './prom-text.ts';

export interface SpecConfig {
  /** Draft tokens per step (vLLM `num_speculative_tokens`). */
  k: number;
  /** Acceptance probability of draft position i given all before it were accepted; length k. */
  accept: number[];
}

/** The expected window values of a configuration (what the done-criterion test compares with). @internal exported for its tests */
export function expectedSpec(c: SpecConfig): { perPosition: number[]; meanLength: number; rate: number } {
  const perPosition: number[] = [];
  let p = 1;
  for (const a of c.accept) perPosition.push((p *= a));
  const sum = perPosition.reduce((x, y) => x + y, 0);
  return { perPosition, meanLength: 1 + sum, rate: c.k > 0 ? sum / c.k : 0 };
}

/** `--spec-accept 0.8,0.6` for K = 3: the last probability repeats; each clamped to 0..1. */
export function resolveSpec(k: number | undefined, accept: readonly number[] | undefined): SpecConfig | null {
  const K = typeof k === 'number' && Number.isFinite(k) ? Math.min(16, Math.max(0, Math.floor(k))) : 0;
  if (K === 0) return null;
  const given = (accept ?? []).filter((x) => Number.isFinite(x)).map((x) => Math.min(1, Math.max(0, x)));
  const list = given.length > 0 ? given : [0.7];
  const out: number[] = [];
  for (let i = 0; i < K; i++) out.push(list[Math.min(i, list.length - 1)] as number);
  return { k: K, accept: out };
}

/** `--spec-accept 0.8,0.6,0.4`: numbers in 0..1, or the reason it is refused. */
export function parseSpecAccept(v: string | undefined): number[] | string {
  if (v === undefined) return [];
  const parts = v.split(',').map((x) => x.trim());
  const out = parts.map(Number);
  if (parts.some((x) => x === '') || out.some((x) => !Number.isFinite(x) || x < 0 || x > 1))
    return `--spec-accept: comma-separated probabilities between 0 and 1, not "${v}"`;
  return out;
}

export interface SpecCounts {
  drafts: number;
  draftTokens: number;
  accepted: number;
  perPosition: number[];
  /** Accepted tokens past a sequence's end (counted, as vLLM counts them, but never sent). */
  discarded: number;
}

export class SimSpecDecode {
  private counts: SpecCounts;

  constructor(readonly config: SpecConfig) {
    this.counts = SimSpecDecode.zero(config.k);
  }

  private static zero(k: number): SpecCounts {
    return {
      drafts: 0,
      draftTokens: 0,
      accepted: 0,
      perPosition: new Array<number>(k).fill(0),
      discarded: 0,
    };
  }

  /** A request's own stream of draws. */
  rngFor(textSeed: number, seed: number): Rng {
    return new Rng(seed ^ textSeed, 'spec-decode');
  }

  /**
   * One verification step of a sequence with `remaining` tokens still to produce (≥ 1): how many
   * it yields (1 + accepted, cut at the end).
   */
  step(rng: Rng, remaining: number): number {
    const { k, accept } = this.config;
    let a = 0;
    while (a < k && rng.next() < (accept[a] as number)) a++;
    const c = this.counts;
    c.drafts++;
    c.draftTokens += k;
    c.accepted += a;
    for (let i = 0; i < a; i++) c.perPosition[i] = (c.perPosition[i] as number) + 1;
    const yielded = Math.min(1 + a, remaining);
    c.discarded += 1 + a - yielded;
    return yielded;
  }

  snapshot(): SpecCounts {
    return { ...this.counts, perPosition: [...this.counts.perPosition] };
  }

  /** A metrics restart (`POST /sim/restart-metrics`) zeroes the counters, as a server restart. */
  restart(): void {
    this.counts = SimSpecDecode.zero(this.config.k);
  }

  /** vLLM's four families (names and HELP texts of `SpecDecodingProm`). */
  render(w: PromWriter, labels: Labels, createdSec: number): void {
    const c = this.counts;
    const one = (value: number) => [{ labels, value }];
    w.counter('vllm:spec_decode_num_drafts', 'Number of spec decoding drafts.', one(c.drafts), createdSec);
    w.counter('vllm:spec_decode_num_draft_tokens', 'Number of draft tokens.', one(c.draftTokens), createdSec);
    w.counter(
      'vllm:spec_decode_num_accepted_tokens',
      'Number of accepted tokens.',
      one(c.accepted),
      createdSec,
    );
    w.counter(
      'vllm:spec_decode_num_accepted_tokens_per_pos',
      'Accepted tokens per draft position.',
      c.perPosition.map((value, i) => ({ labels: { ...labels, position: String(i) }, value })),
      createdSec,
    );
  }
}
