/**
 * The request view for embeddings and rerank: one JSON answer, not a token stream. Its phases,
 * sizes and the server's usage (PoolingPhases), the result readable (PoolingResult), errors
 * classified as for every dialect, the comparison — and no token timeline, ITL histogram, chunk
 * chart, output text or TTFT/ITL statistics, which would only be empty or zero here.
 */
import { CompareView } from '../CompareView.tsx';
import { ErrorView } from '../ErrorView.tsx';
import { RequestHeader } from '../RequestHeader.tsx';
import { useRequestStore } from '../request-store.ts';
import { PoolingPhases } from './PoolingPhases.tsx';
import { PoolingResult } from './PoolingResult.tsx';

const NOTHING = { events: 0, contentEvents: 0, outputTokens: 0, textChars: 0 };

export function PoolingView() {
  const digest = useRequestStore((s) => s.current.digest);
  const state = useRequestStore((s) => s.current.state);
  const compareId = useRequestStore((s) => s.compare.id);
  const error = digest?.error ?? null;
  return (
    <div className="request-view" data-testid="pooling-view">
      <RequestHeader />
      {error && <ErrorView error={error} partial={NOTHING} wholeAnswer />}
      {compareId && <CompareView />}
      {digest && state !== 'running' ? (
        <>
          <PoolingPhases digest={digest} />
          <PoolingResult answer={digest.answer} />
        </>
      ) : (
        <section className="card" aria-label="Request phases">
          <p className="muted">Waiting for the answer: it comes as one JSON document.</p>
        </section>
      )}
    </div>
  );
}
