/** What a prompt source gives the runner, and length distributions (shared by every source). */
import type { ChatMessage } from '../../shared/request.ts';
import type { Rng } from '../../shared/prng.ts';
import type { ForceOutput, LengthDist } from '../../shared/runs/workload.ts';

export interface PromptItem {
  prompt?: string;
  messages?: ChatMessage[];
  /** Estimated prompt tokens (used when the server reports none). */
  inputTokens: number;
  /** Output length to ask for (max_tokens); null = the server's default. */
  outputTokens: number | null;
}

/** Which items: the measured ones, the warm-up's, or the test request's (each its own stream). */
export type PromptStream = 'main' | 'warmup' | 'test';

export interface PromptProvider {
  description: string;
  /** Distinct items available; null = unbounded (synthetic). */
  size: number | null;
  force: ForceOutput;
  at(i: number, stream?: PromptStream): PromptItem;
}

export function sampleLength(d: LengthDist, rng: Rng): number {
  switch (d.type) {
    case 'fixed':
      return d.value;
    case 'uniform':
      return d.min + rng.int(d.max - d.min + 1);
    case 'normal': {
      const v = Math.round(d.mean + d.std * rng.normal());
      return Math.min(d.max ?? Infinity, Math.max(d.min ?? 1, v));
    }
  }
}

export function describeDist(d: LengthDist): string {
  if (d.type === 'fixed') return String(d.value);
  if (d.type === 'uniform') return `${d.min}–${d.max}`;
  return `normal(${d.mean}, ${d.std})`;
}
