/**
 * Output tokens counted the way `vllm bench serve` counts them when a stream gave it no usage it
 * reads: its calculate_metrics re-tokenizes the generated text (vllm/benchmarks/serve.py,
 * `tokenizer(generated_text, add_special_tokens=False)`). Tokenscope has no tokenizer of the
 * server's model, so it asks the server: after the run (never during it: the counting would load
 * the server being measured), each such request's text goes to the server's POST /tokenize — vLLM's
 * `{"model", "prompt", "add_special_tokens": false}` → `{"count", "tokens", …}`
 * (vllm/entrypoints/openai/protocol.py TokenizeCompletionRequest), else llama.cpp's
 * `{"content", "add_special": false}` → `{"tokens"}` (tools/server/server.cpp handle_tokenize);
 * SGLang serves /tokenize too. The counts go on the lines (`tokenizedOutputTokens`) and into the
 * run file (a `tokenized` line); where the server has no tokenizer, the counts stay labelled
 * estimated.
 */
import type { DialectId } from '../../shared/dialects.ts';
import type { RequestRecord } from '../../shared/record.ts';
import { vllmUsageTokens } from '../../shared/runs/summary/definitions.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import type { RunTokenizedLine } from '../../shared/runs/file/tokenized-line.ts';
import { redactTargetUrl, type RunTargetSpec } from './request-spec.ts';
import { smallPost } from './small-post.ts';

/** Text kept for counting, in all (characters): past it, later requests stay estimated. */
const MAX_KEPT_CHARS = 64 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const PARALLEL = 4;

/** The output texts of a run's requests whose count vLLM's client would have re-tokenized. */
export class OutputTexts {
  private readonly items: { line: RunRequestLine; text: string }[] = [];
  private chars = 0;

  constructor(private readonly dialect: DialectId) {}

  /** Keeps the line's text when it is to be counted; whether it was (the line then waits for its count). */
  keep(line: RunRequestLine, rec: RequestRecord): boolean {
    if (line.warmup || line.events.t.length === 0) return false;
    if (this.dialect !== 'openai-chat' && this.dialect !== 'openai-completions') return false;
    if (vllmUsageTokens(line, this.dialect) > 0 || rec.textCapped) return false;
    if (this.chars + rec.text.length > MAX_KEPT_CHARS) return false;
    this.chars += rec.text.length;
    this.items.push({ line, text: rec.text });
    return true;
  }

  get size(): number {
    return this.items.length;
  }

  /**
   * Counts every kept text with the server's tokenizer and puts the counts on the lines; the
   * file's `tokenized` line, or null when nothing was kept or the server has no /tokenize.
   */
  async count(target: RunTargetSpec, signal?: AbortSignal): Promise<RunTokenizedLine | null> {
    if (this.items.length === 0) return null;
    const url = tokenizeUrl(target.url);
    if (!url) return null;
    const first = this.items[0]!;
    let shape: RunTokenizedLine['shape'] | null = null;
    let n0: number | null = null;
    for (const s of ['vllm', 'llamacpp'] as const) {
      n0 = await countOne(url, target, s, first.text, signal);
      if (n0 !== null) {
        shape = s;
        break;
      }
    }
    if (shape === null || n0 === null) return null;
    const counts: Record<string, number> = { [first.line.id]: n0 };
    let next = 1;
    const worker = async (): Promise<void> => {
      while (next < this.items.length && !signal?.aborted) {
        const it = this.items[next++]!;
        const n = await countOne(url, target, shape, it.text, signal);
        if (n !== null) counts[it.line.id] = n;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    for (const it of this.items) {
      const n = counts[it.line.id];
      if (n !== undefined) it.line.tokenizedOutputTokens = n;
    }
    return { type: 'tokenized', via: redactTargetUrl(url), shape, counts };
  }
}

/** The server's /tokenize: at the root of the target's origin (vLLM, llama.cpp, SGLang serve it there). @internal exported for its tests */
export function tokenizeUrl(target: string): string | null {
  try {
    return new URL('/tokenize', target).toString();
  } catch {
    return null;
  }
}

/** One text's count, or null when the server did not answer with one in this shape. */
async function countOne(
  url: string,
  target: RunTargetSpec,
  shape: RunTokenizedLine['shape'],
  text: string,
  signal?: AbortSignal,
): Promise<number | null> {
  const body =
    shape === 'vllm'
      ? { model: target.model, prompt: text, add_special_tokens: false }
      : { content: text, add_special: false };
  const answer = await postJson(url, body, target, signal);
  if (answer === null || typeof answer !== 'object') return null;
  const a = answer as { count?: unknown; tokens?: unknown };
  if (typeof a.count === 'number' && Number.isInteger(a.count) && a.count >= 0) return a.count;
  return Array.isArray(a.tokens) ? a.tokens.length : null;
}

/** The answer's JSON when the POST succeeded with 200; null on any failure (the count stays estimated). */
async function postJson(
  url: string,
  body: unknown,
  target: RunTargetSpec,
  signal?: AbortSignal,
): Promise<unknown> {
  const a = await smallPost(url, target, {
    json: body,
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
    signal,
  });
  if (a === null || a.status !== 200) return null;
  try {
    return JSON.parse(a.body) as unknown;
  } catch {
    return null;
  }
}
