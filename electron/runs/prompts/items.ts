/** What a prompt source gives the runner; length distributions and synthetic text (shared by every source). */
import type { ChatMessage, RequestImage } from '../../../shared/request.ts';
import type { ToolChoice, ToolSpec } from '../../../shared/tool-calls.ts';
import type { Rng } from '../../../shared/prng.ts';
import type { ForceOutput, LengthDist } from '../../../shared/runs/workload/workload.ts';

export interface PromptItem {
  prompt?: string;
  messages?: ChatMessage[];
  /** Images sent with it (workload `images`, a JSONL row's `images`): shared, never copied per item. */
  images?: RequestImage[];
  /** Estimated prompt tokens (used when the server reports none). */
  inputTokens: number;
  /** Output length to ask for (max_tokens); null = the server's default. */
  outputTokens: number | null;
  /** Embeddings: the batch; rerank: the documents, `prompt` the query (prompts/pooling.ts). */
  inputs?: string[];
  /** Rerank: the best N asked for. */
  topN?: number;
  /** A tools dataset's line: the tools it offers and its choice (the workload's `tools` add to them). */
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
}

/** Which items: the measured ones, the warm-up's, or the test request's (each its own stream). */
type PromptStream = 'main' | 'warmup' | 'test';

export interface PromptProvider {
  description: string;
  /** Distinct items available; null = unbounded (synthetic). */
  size: number | null;
  force: ForceOutput;
  /**
   * Planned send times (ms on the run clock) of the main stream's items, when the source sets them
   * (a trace replay); the run then sends at most this many requests and ignores the arrival process.
   */
  schedule?: Float64Array;
  /** Some items carry images of their own (a JSONL file's `images`). */
  hasImages?: boolean;
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
export function syntheticText(tokens: number, rng: Pick<Rng, 'int'>): string {
  const out: string[] = [];
  for (let i = 0; i < tokens; i++) out.push(WORDS[rng.int(WORDS.length)]!);
  return out.join(' ');
}
