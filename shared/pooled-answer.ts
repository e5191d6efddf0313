/**
 * What the request debugger keeps of a non-streamed answer (embeddings, rerank) to show it: a
 * readable digest, never the whole body. A 64-input batch of 4096-float vectors is megabytes of
 * JSON; the digest is each vector's dimension, L2 norm and first values, or each ranked document
 * with its score and text — all bounded (POOLED_LIMITS), with how many were left out — plus the
 * body's start for a "raw" view. Built by the engine (electron/engine/dialects/pooled-answer.ts)
 * only for requests that keep raw data (the debugger's), never for load runs.
 */

export const POOLED_LIMITS = {
  /** Embeddings or rerank results described one by one; the rest are counted in `omitted`. */
  items: 256,
  /** Leading values of each vector kept. */
  head: 8,
  /** Characters of each ranked document's text kept. */
  documentChars: 1000,
  /** Characters of the body kept for the raw view. */
  bodyChars: 16 * 1024,
  /** Vectors compared pairwise (cosine similarity) at most: a batch larger than this has no matrix. */
  similarity: 16,
} as const;

/** One input's vector (null dimension and norm: not an array of numbers, nor base64 of float32s). */
export interface EmbeddingDigest {
  index: number;
  /** `encoding_format: "base64"` (vLLM, OpenAI: little-endian float32), decoded for this digest. */
  base64?: boolean;
  dimension: number | null;
  /** Euclidean (L2) norm: 1 for a normalized model's vectors. */
  norm: number | null;
  /** The first POOLED_LIMITS.head values. */
  head: number[];
}

/** One scored document, in the server's order (best first). */
export interface RerankDigest {
  index: number;
  score: number;
  /** The document's text: the server's `document.text`, else the one sent at `index`. */
  text: string;
  textCut: boolean;
}

interface BodySample {
  /** The body's first POOLED_LIMITS.bodyChars characters. */
  body: string;
  /** The body's size in bytes. */
  bodyBytes: number;
  /** `body` is only the body's start (past bodyChars, or past the engine's per-response cap). */
  bodyCut: boolean;
}

/** What a digest holds, in characters (each number counted as 24): for the history's memory bound. */
export function pooledAnswerChars(a: PooledAnswer): number {
  const listed =
    a.kind === 'embeddings'
      ? a.items.reduce((n, e) => n + 24 * (e.head.length + 3), 0) + 24 * (a.similarity?.length ?? 0) ** 2
      : a.kind === 'rerank'
        ? a.results.reduce((n, r) => n + 48 + r.text.length, 0)
        : 0;
  return a.body.length + listed;
}

export type PooledAnswer =
  | ({
      kind: 'embeddings';
      items: EmbeddingDigest[];
      omitted: number;
      /**
       * Cosine similarity of every pair of vectors, in `items` order (2 to POOLED_LIMITS.similarity
       * vectors of one length; absent otherwise): identical inputs give 1, a sanity check a person
       * can read where a vector cannot be.
       */
      similarity?: number[][];
    } & BodySample)
  | ({ kind: 'rerank'; results: RerankDigest[]; omitted: number } & BodySample)
  /** Not the dialect's shape (or not JSON): only the body, for the raw view. */
  | ({ kind: 'unreadable' } & BodySample);
