/**
 * The simulator's pooling model: `POST /v1/embeddings` and `POST /v1/rerank` (also `/rerank`,
 * `/v2/rerank`, as vLLM serves it), answered in vLLM's shapes (vllm/entrypoints/openai/protocol.py
 * `EmbeddingResponse`, `RerankResponse`), not streamed.
 *
 * Latency: requests wait in one queue; a forward pass takes every waiting request up to
 * POOL_STEP_TOKENS (one larger request runs alone) and lasts `decodeStepMs + prefillMsPerToken ×
 * its tokens` — the fixed cost of a pass plus the per-token prefill cost — and all of them answer
 * when it ends. So requests sent together share the fixed cost (batching), and a request's latency
 * grows with its tokens. Embeddings are deterministic: each input's vector is a seeded function of
 * (simulator seed, its text), `embeddingDim` long, unit length. A rerank's relevance score is in
 * (0, 1), best first, at most top_n: the share of the query's words (stop words left out) the
 * document contains, plus a small seeded jitter that orders ties — so a demo ranks a document
 * about the query above the unrelated ones, as a real reranker would (`relevance`).
 *
 * Tokens: an embeddings input is BOS + its text (shared/tokenizer.ts); a rerank pair is BOS + the
 * query + SEP + the document. Bad input is answered as vLLM does: 400 with its error object.
 *
 * /metrics: each answered request is counted as vLLM V1 counts a pooling request (metrics.ts
 * `pooled`: prompt tokens, success "stop", its times, one TTFT, no ITL); the pass's requests are
 * `num_requests_running`, the queue `num_requests_waiting`.
 */
import type { ServerResponse } from 'node:http';
import { hash32, Rng } from '../../shared/prng.ts';
import { countPromptTokens, countTextTokens } from '../../shared/tokenizer.ts';
import { badJsonError, httpError } from './errors.ts';
import { sendError, type SimCore } from './generate.ts';
import type { SimMetrics } from './metrics.ts';

/** Words that say nothing of a document's subject: not matched. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could did do does for from has have how i in into is it its me my ' +
    'of on or our so than that the their them there these this those to was we were what when where ' +
    'which who why will with you your'
  ).split(' '),
);

function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w && !STOP_WORDS.has(w)) out.add(w);
  return out;
}

/**
 * A rerank score in (0, 1): 0.05 + 0.85 × the share of the query's content words the document has,
 * + up to 0.1 of seeded jitter (hash of query and document), to 6 decimals.
 * @internal exported for its tests
 */
export function relevance(query: string, text: string, seed: number): number {
  const q = contentWords(query);
  const d = contentWords(text);
  let hit = 0;
  for (const w of q) if (d.has(w)) hit++;
  const share = q.size > 0 ? hit / q.size : 0;
  const jitter = hash32(`${query}\u0000${text}`, seed) / 2 ** 32;
  return Math.round((0.05 + 0.85 * share + 0.1 * jitter) * 1e6) / 1e6;
}

/** Tokens one forward pass takes from the queue (vLLM's max_num_batched_tokens for pooling models). */
const POOL_STEP_TOKENS = 16_384;
/** The longest input the simulated model takes (its max_model_len for pooling). */
const POOL_MAX_INPUT_TOKENS = 8192;
/** Inputs one request may carry (vLLM has no such limit; a bound keeps the simulator's memory flat). */
const POOL_MAX_INPUTS = 4096;

type PoolKind = 'embeddings' | 'rerank';

interface PoolJob {
  tokens: number;
  /** When its body was read (vLLM's arrival), on performance.now()'s clock. */
  arrivalMs: number;
  answer: () => void;
  res: ServerResponse;
}

/** One queue of pooling requests per simulator, served one forward pass at a time. */
export class PoolingEngine {
  private readonly queue: PoolJob[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Forward passes run so far, and the requests they served (tests read the batching off them). */
  passes = 0;
  served = 0;
  /** Requests in the pass under way (vllm:num_requests_running counts them, as vLLM's scheduler does). */
  running = 0;

  constructor(
    private readonly core: SimCore,
    /** Where answered requests are counted as vLLM counts pooling requests (metrics.ts `pooled`). */
    private readonly metrics: SimMetrics | null = null,
  ) {}

  /** Requests waiting for a pass (vllm:num_requests_waiting). */
  get waiting(): number {
    return this.queue.length;
  }

  accept(kind: PoolKind, res: ServerResponse, raw: string, requestId: string): void {
    const dialect = kind === 'embeddings' ? 'openai-embeddings' : 'rerank';
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      return sendError(res, badJsonError(dialect, e instanceof Error ? e.message : 'invalid JSON'));
    }
    const model = this.core.opts.model;
    const planned =
      kind === 'embeddings' ? planEmbeddings(body, this.core, model) : planRerank(body, this.core, model);
    if ('error' in planned) return sendError(res, httpError(dialect, 400, { message: planned.error }));
    const answer = (): void => {
      if (res.destroyed || res.writableEnded) return;
      const text = JSON.stringify({
        id: `${kind === 'embeddings' ? 'embd' : 'rerank'}-${requestId}`,
        ...planned.body(),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    };
    this.queue.push({ tokens: planned.tokens, arrivalMs: performance.now(), answer, res });
    if (!this.timer) this.step();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const j of this.queue.splice(0)) j.res.destroy();
  }

  /** Starts the next forward pass with what waits: its requests answer when it ends. */
  private step(): void {
    if (this.closed || this.queue.length === 0) {
      this.timer = null;
      return;
    }
    let tokens = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || tokens + this.queue[n]!.tokens <= POOL_STEP_TOKENS))
      tokens += this.queue[n++]!.tokens;
    const batch = this.queue.splice(0, n);
    const o = this.core.opts;
    const ms = o.decodeStepMs + o.prefillMsPerToken * tokens;
    const scheduledMs = performance.now();
    this.passes++;
    this.running = batch.length;
    this.timer = setTimeout(() => {
      const endMs = performance.now();
      this.served += batch.length;
      this.running = 0;
      this.metrics?.iteration(tokens);
      for (const j of batch) {
        const gone = j.res.destroyed || j.res.writableEnded;
        this.metrics?.pooled({ promptTokens: j.tokens, arrivalMs: j.arrivalMs, scheduledMs, endMs }, gone);
        j.answer();
      }
      this.step();
    }, ms);
  }
}

interface Planned {
  tokens: number;
  body: () => Record<string, unknown>;
}

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function strings(v: unknown, field: string): string[] | { error: string } {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string'))
    return { error: `\`${field}\` must be a non-empty string or array of strings` };
  if (v.length > POOL_MAX_INPUTS)
    return { error: `\`${field}\` has ${v.length} items; at most ${POOL_MAX_INPUTS}` };
  return v as string[];
}

/** vLLM's words for an input past the model's length (serving_engine.py `_validate_input`). */
function tooLong(tokens: number, what: string): { error: string } {
  return {
    error: `This model's maximum context length is ${POOL_MAX_INPUT_TOKENS} tokens. However, you requested ${tokens} tokens in the input for ${what}. Please reduce the length of the input.`,
  };
}

/** A unit vector of `dim` values, seeded by (sim seed, text). */
function embed(seed: number, text: string, dim: number): number[] {
  const rng = new Rng(seed, `embed:${hash32(text)}`);
  const v = new Array<number>(dim);
  let norm = 0;
  for (let i = 0; i < dim; i++) {
    const x = rng.normal();
    v[i] = x;
    norm += x * x;
  }
  const k = 1 / Math.sqrt(norm || 1);
  // Six significant digits, as a float32 printed by Python is about.
  for (let i = 0; i < dim; i++) v[i] = Math.round(v[i]! * k * 1e6) / 1e6;
  return v;
}

function planEmbeddings(body: unknown, core: SimCore, model: string): Planned | { error: string } {
  const b = obj(body);
  if (!b) return { error: 'the request body must be a JSON object' };
  const inputs = strings(b.input, 'input');
  if ('error' in inputs) return inputs;
  const format = b.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64')
    return { error: `encoding_format must be "float" or "base64", not ${JSON.stringify(format)}` };
  let tokens = 0;
  for (const t of inputs) {
    const n = countPromptTokens(t);
    if (n > POOL_MAX_INPUT_TOKENS) return tooLong(n, 'embedding generation');
    tokens += n;
  }
  const { seed, embeddingDim } = core.opts;
  return {
    tokens,
    body: () => ({
      object: 'list',
      created: Math.floor(Date.now() / 1000),
      model,
      data: inputs.map((t, index) => {
        const v = embed(seed, t, embeddingDim);
        const embedding =
          format === 'base64' ? Buffer.from(Float32Array.from(v).buffer).toString('base64') : v;
        return { index, object: 'embedding', embedding };
      }),
      usage: {
        prompt_tokens: tokens,
        total_tokens: tokens,
        completion_tokens: 0,
        prompt_tokens_details: null,
      },
    }),
  };
}

function planRerank(body: unknown, core: SimCore, model: string): Planned | { error: string } {
  const b = obj(body);
  if (!b) return { error: 'the request body must be a JSON object' };
  if (typeof b.query !== 'string') return { error: '`query` must be a string' };
  const query = b.query;
  const docs = strings(b.documents, 'documents');
  if ('error' in docs) return docs;
  const topN = b.top_n ?? 0;
  if (typeof topN !== 'number' || !Number.isInteger(topN) || topN < 0)
    return { error: '`top_n` must be a non-negative integer' };
  const q = countPromptTokens(query);
  let tokens = 0;
  for (const d of docs) {
    const n = q + 1 + countTextTokens(d); // BOS + query + SEP + document
    if (n > POOL_MAX_INPUT_TOKENS) return tooLong(n, 'scoring');
    tokens += n;
  }
  const { seed } = core.opts;
  return {
    tokens,
    body: () => {
      const results = docs
        .map((text, index) => ({
          index,
          document: { text },
          relevance_score: relevance(query, text, seed),
        }))
        .sort((a, b2) => b2.relevance_score - a.relevance_score || a.index - b2.index);
      return {
        model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
        results: topN > 0 ? results.slice(0, topN) : results,
      };
    },
  };
}
