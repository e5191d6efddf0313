/**
 * The request debugger's digest of an embeddings or rerank answer (shared/pooled-answer.ts): what
 * the dialect's reader checked (pooling.ts), turned into something a person reads — per vector its
 * dimension, norm and first values; per ranked document its index, score and text. Bounded
 * whatever the server sent; never throws (a body that is not the dialect's shape is `unreadable`,
 * its start kept for the raw view, and the dialect's reader has already classified it).
 */
import type { DialectId } from '../../../shared/dialects.ts';
import {
  POOLED_LIMITS,
  type EmbeddingDigest,
  type PooledAnswer,
  type RerankDigest,
} from '../../../shared/pooled-answer.ts';
import type { RequestSpec } from '../../../shared/request.ts';
import { isObj, type Obj } from './common.ts';

/** A digest and, when every value is a number, the whole vector (for the similarities). */
type Embedded = EmbeddingDigest & { vector: number[] | null };

function embeddingOf(item: unknown, i: number): Embedded {
  const o: Obj = isObj(item) ? item : {};
  const index = typeof o.index === 'number' ? o.index : i;
  const e = typeof o.embedding === 'string' ? float32s(o.embedding) : o.embedding;
  if (!Array.isArray(e)) return { index, dimension: null, norm: null, head: [], vector: null };
  const b64 = typeof o.embedding === 'string' ? { base64: true } : {};
  let sq = 0;
  let numeric = true;
  for (const v of e) {
    if (typeof v !== 'number') {
      numeric = false;
      break;
    }
    sq += v * v;
  }
  const head = e.slice(0, POOLED_LIMITS.head).filter((v): v is number => typeof v === 'number');
  const norm = numeric ? Math.sqrt(sq) : null;
  return { index, ...b64, dimension: e.length, norm, head, vector: numeric ? (e as number[]) : null };
}

/** Cosine similarity of each pair, or undefined when the vectors cannot be compared. */
function similarities(items: readonly Embedded[]): number[][] | undefined {
  if (items.length < 2 || items.length > POOLED_LIMITS.similarity) return undefined;
  const vs = items.map((e) => e.vector);
  const dim = vs[0]?.length ?? 0;
  if (!vs.every((v) => v !== null && v.length === dim) || dim === 0) return undefined;
  return items.map((a, i) =>
    items.map((b, j) => {
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += vs[i]![k]! * vs[j]![k]!;
      return a.norm && b.norm ? dot / (a.norm * b.norm) : Number.NaN;
    }),
  );
}

/** A base64 vector as its little-endian float32 values, or null when it is not one. */
function float32s(s: string): number[] | null {
  const bytes = Buffer.from(s, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
  const out = new Array<number>(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

function rerankOf(r: unknown, i: number, documents: readonly string[]): RerankDigest {
  const o: Obj = isObj(r) ? r : {};
  const index = typeof o.index === 'number' ? o.index : i;
  const doc = o.document;
  const sent = documents[index] ?? '';
  const full = isObj(doc) && typeof doc.text === 'string' ? doc.text : typeof doc === 'string' ? doc : sent;
  return {
    index,
    score: typeof o.relevance_score === 'number' ? o.relevance_score : Number.NaN,
    text: full.slice(0, POOLED_LIMITS.documentChars),
    textCut: full.length > POOLED_LIMITS.documentChars,
  };
}

/** The digest of a whole 2xx body `text` (`size` bytes as sent) of an embeddings or rerank request. */
export function pooledAnswer(
  dialect: DialectId,
  spec: RequestSpec,
  text: string,
  size: number,
): PooledAnswer {
  const sample = {
    body: text.slice(0, POOLED_LIMITS.bodyChars),
    bodyBytes: size,
    // `size` counts bytes as sent; `text` holds the engine's cap of them at most (pooling.ts).
    bodyCut: text.length > POOLED_LIMITS.bodyChars || size > Buffer.byteLength(text),
  };
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', ...sample };
  }
  const list = isObj(o) ? (dialect === 'rerank' ? o.results : o.data) : undefined;
  if (!Array.isArray(list)) return { kind: 'unreadable', ...sample };
  const kept = list.slice(0, POOLED_LIMITS.items);
  const omitted = list.length - kept.length;
  if (dialect === 'rerank') {
    const documents = spec.inputs ?? [];
    return { kind: 'rerank', results: kept.map((r, i) => rerankOf(r, i, documents)), omitted, ...sample };
  }
  const embedded = kept.map(embeddingOf).sort((a, b) => a.index - b.index);
  const similarity = omitted === 0 ? similarities(embedded) : undefined;
  const items = embedded.map(({ vector: _vector, ...digest }) => digest);
  return { kind: 'embeddings', items, omitted, ...(similarity ? { similarity } : {}), ...sample };
}
