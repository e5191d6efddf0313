/**
 * What an embeddings or rerank request got back, readable: per input its vector's dimension, L2
 * norm and first values (never the whole vector: a 4096-float vector is not read as text); per
 * ranked document its rank, index, relevance score and text. "Raw" shows the body's start, as
 * it came (the engine keeps at most POOLED_LIMITS.bodyChars of it: shared/pooled-answer.ts).
 */
import { fmtBytes } from '../../../shared/format.ts';
import { POOLED_LIMITS, type PooledAnswer } from '../../../shared/pooled-answer.ts';

type Embeddings = Extract<PooledAnswer, { kind: 'embeddings' }>;
type Rerank = Extract<PooledAnswer, { kind: 'rerank' }>;

/** A vector's first values, to 4 decimals (tiny ones in exponent form). @internal exported for its tests */
export function headText(head: readonly number[], dimension: number | null): string {
  const shown = head.map((v) => (Math.abs(v) >= 1e-4 || v === 0 ? v.toFixed(4) : v.toExponential(2)));
  const more = dimension !== null && dimension > head.length ? `, … ${dimension - head.length} more` : '';
  return `[${shown.join(', ')}${more}]`;
}

function Omitted({ n, what }: { n: number; what: string }) {
  if (n <= 0) return null;
  return (
    <p className="muted" data-testid="pooling-omitted">
      {n} more {what} not listed (the first {POOLED_LIMITS.items} are).
    </p>
  );
}

function EmbeddingsTable({ a }: { a: Embeddings }) {
  return (
    <>
      <table className="pooling-table" data-testid="embeddings-table">
        <thead>
          <tr>
            <th>input</th>
            <th title="The vector's length">dimension</th>
            <th title="Euclidean (L2) norm: 1.0000 for a normalized model">norm</th>
            <th title={`The first ${POOLED_LIMITS.head} values`}>first values</th>
          </tr>
        </thead>
        <tbody>
          {a.items.map((e) => (
            <tr key={e.index}>
              <td className="mono">{e.index}</td>
              <td
                className="mono"
                title={e.base64 ? 'Sent base64-encoded (float32), decoded here' : undefined}
              >
                {e.dimension ?? '—'}
                {e.base64 ? ' (base64)' : ''}
              </td>
              <td className="mono">{e.norm !== null ? e.norm.toFixed(4) : '—'}</td>
              <td className="mono vec">{e.dimension !== null ? headText(e.head, e.dimension) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Omitted n={a.omitted} what="vectors" />
      {a.similarity && <SimilarityMatrix m={a.similarity} indices={a.items.map((e) => e.index)} />}
    </>
  );
}

/**
 * A score's bar, as a share of the scale: 0–1 when every score is in it (the usual sigmoid
 * relevance, so 0.92 and 0.99 look alike only when they are), else the largest score.
 * @internal exported for its tests
 */
export function scoreShare(score: number, scores: readonly number[]): number {
  const finite = scores.filter(Number.isFinite);
  const unit = finite.every((s) => s >= 0 && s <= 1);
  const top = unit ? 1 : Math.max(...finite, 0);
  return top > 0 && Number.isFinite(score) && score > 0 ? Math.min(score / top, 1) : 0;
}

/** Cosine similarity of each pair of inputs, shaded by value (1: the same direction). */
function SimilarityMatrix({ m, indices }: { m: number[][]; indices: number[] }) {
  return (
    <details className="sub" open={m.length <= 8}>
      <summary title="Cosine similarity of each pair of vectors: 1.0000 on the diagonal; identical inputs give 1 too">
        Cosine similarity ({m.length} × {m.length})
      </summary>
      <table className="pooling-table similarity" data-testid="similarity-matrix">
        <thead>
          <tr>
            <th />
            {indices.map((i) => (
              <th key={i} className="mono">
                {i}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {m.map((row, r) => (
            <tr key={indices[r]}>
              <th className="mono">{indices[r]}</th>
              {row.map((v, c) => (
                <td
                  key={c}
                  className="mono"
                  style={{
                    background: `rgba(91, 157, 255, ${Number.isFinite(v) ? Math.max(0, v) * 0.45 : 0})`,
                  }}
                >
                  {Number.isFinite(v) ? v.toFixed(4) : '—'}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function RerankTable({ a }: { a: Rerank }) {
  const scores = a.results.map((r) => r.score);
  return (
    <>
      <table className="pooling-table" data-testid="rerank-table">
        <thead>
          <tr>
            <th>rank</th>
            <th title="The document's position in the request">document</th>
            <th title="relevance_score as the server gave it">score</th>
            <th>text</th>
          </tr>
        </thead>
        <tbody>
          {a.results.map((r, i) => (
            <tr key={`${r.index}-${i}`}>
              <td className="mono">{i + 1}</td>
              <td className="mono">{r.index}</td>
              <td className="mono score">
                <span className="score-val">{Number.isFinite(r.score) ? r.score.toFixed(4) : '—'}</span>
                <span className="score-track">
                  <span className="score-bar" style={{ width: `${scoreShare(r.score, scores) * 100}%` }} />
                </span>
              </td>
              <td className="doc">
                {r.text}
                {r.textCut ? ' …' : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Omitted n={a.omitted} what="results" />
    </>
  );
}

export function PoolingResult({ answer }: { answer: PooledAnswer | undefined }) {
  if (!answer) return null;
  const cut = answer.bodyCut;
  return (
    <section className="card pooling-result" aria-label="Result" data-testid="pooling-result">
      <header className="card-head">
        <h3>Result</h3>
        <span className="muted">
          {answer.kind === 'embeddings'
            ? `${answer.items.length + answer.omitted} vectors`
            : answer.kind === 'rerank'
              ? `${answer.results.length + answer.omitted} documents, best first`
              : 'not the dialect’s shape: see the error and the raw body'}
        </span>
      </header>
      {answer.kind === 'embeddings' && <EmbeddingsTable a={answer} />}
      {answer.kind === 'rerank' && <RerankTable a={answer} />}
      <details className="sub" open={answer.kind === 'unreadable'}>
        <summary data-testid="pooling-raw-toggle">
          Raw response body ({fmtBytes(answer.bodyBytes)}
          {cut ? `, its start shown` : ''})
        </summary>
        <pre className="mono pooling-raw" data-testid="pooling-raw">
          {answer.body}
          {cut ? '\n…' : ''}
        </pre>
      </details>
    </section>
  );
}
