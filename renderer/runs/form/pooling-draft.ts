/**
 * The run form's embeddings/rerank fields (workload `pooling`, shared/runs/workload/pooling.ts) as
 * strings, and their conversions. Defaults are the schema's (1 input per request; 8 documents of
 * 128 tokens; every document scored), so a workload that leaves them is written without `pooling`
 * and one whose target streams tokens never carries it.
 */
export interface PoolingDraft {
  /** Embeddings: inputs per request. */
  poolBatchSize: string;
  /** Rerank: documents per query. */
  poolDocuments: string;
  /** Rerank: tokens per document. */
  poolDocumentLen: string;
  /** Rerank: the best N only ('' = every document). */
  poolTopN: string;
}

export const POOLING_DRAFT_DEFAULTS: PoolingDraft = {
  poolBatchSize: '1',
  poolDocuments: '8',
  poolDocumentLen: '128',
  poolTopN: '',
};

const num = (s: string): number => (s.trim() === '' ? NaN : Number(s.trim()));

/** The workload's `pooling` from the draft; undefined when every field is the default. */
export function poolingOut(d: PoolingDraft): Record<string, unknown> | undefined {
  const keys = Object.keys(POOLING_DRAFT_DEFAULTS) as (keyof PoolingDraft)[];
  if (keys.every((k) => d[k].trim() === POOLING_DRAFT_DEFAULTS[k])) return undefined;
  return {
    batchSize: num(d.poolBatchSize),
    documents: num(d.poolDocuments),
    documentLen: num(d.poolDocumentLen),
    ...(d.poolTopN.trim() !== '' ? { topN: num(d.poolTopN) } : {}),
  };
}

/** A loaded workload's `pooling` as draft fields (absent or malformed parts: the defaults). */
export function poolingIn(raw: unknown): PoolingDraft {
  const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const s = (v: unknown, fallback: string): string => (typeof v === 'number' ? String(v) : fallback);
  return {
    poolBatchSize: s(o.batchSize, POOLING_DRAFT_DEFAULTS.poolBatchSize),
    poolDocuments: s(o.documents, POOLING_DRAFT_DEFAULTS.poolDocuments),
    poolDocumentLen: s(o.documentLen, POOLING_DRAFT_DEFAULTS.poolDocumentLen),
    poolTopN: s(o.topN, ''),
  };
}

const FIELD_OF: Record<string, keyof PoolingDraft> = {
  batchSize: 'poolBatchSize',
  documents: 'poolDocuments',
  documentLen: 'poolDocumentLen',
  topN: 'poolTopN',
};

/** The form field of a `pooling…` issue path, else null. */
export function poolingFieldOfPath(path: string): string | null {
  const m = /^pooling(?:\.(\w+))?/.exec(path);
  if (!m) return null;
  return (m[1] && FIELD_OF[m[1]]) || 'poolBatchSize';
}
