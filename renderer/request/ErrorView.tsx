/**
 * A failed request, classified (shared/errors.ts): kind, code, message, HTTP status and body,
 * what the kind means, and what arrived before the failure — kept, never discarded.
 */
import { ERROR_KIND_HELP, type RequestError } from '../../shared/errors.ts';

interface Props {
  error: RequestError;
  /** What arrived before the failure. */
  partial: { events: number; contentEvents: number; outputTokens: number; textChars: number };
  /** A non-streamed answer (embeddings, rerank): its body is the response body, nothing streamed before. */
  wholeAnswer?: boolean;
}

/** What a kind means for a non-streamed answer (embeddings, rerank): one JSON document, no stream. */
const WHOLE_ANSWER_HELP: Partial<Record<RequestError['kind'], string>> = {
  http: 'The server answered with an error status.',
  protocol:
    'The answer is not what the endpoint promises (not JSON, the wrong shape, or too few or many results).',
  server: 'The server answered 2xx with an error object.',
};

/** The body pretty-printed when it is JSON, as it came otherwise. */
export function prettyBody(body: string): { text: string; json: boolean } {
  const s = body.trim();
  if (s.startsWith('{') || s.startsWith('[')) {
    try {
      return { text: JSON.stringify(JSON.parse(s), null, 2), json: true };
    } catch {
      // Not JSON after all (truncated, HTML error page…): show it verbatim.
    }
  }
  return { text: body, json: false };
}

/** What was kept of the stream before it ended early. */
function PartialNote({ partial, before, none }: { partial: Props['partial']; before: string; none: string }) {
  return (
    <p className="error-partial" data-testid="error-partial">
      {partial.events > 0
        ? `Kept what arrived before ${before}: ${partial.events} events, ${partial.contentEvents} with content (${partial.outputTokens} tokens, ${partial.textChars} characters) — shown in the timeline, output and raw frames.`
        : none}
    </p>
  );
}

/** The user's own cancel: its own neutral state, not a failure (no red, no alert). */
function CancelledView({ error, partial }: Props) {
  return (
    <section
      className="card error-view cancelled-view"
      aria-label="Request cancelled"
      data-testid="cancelled-view"
    >
      <header className="error-head">
        <span className="badge neutral" data-testid="error-kind">
          cancelled
        </span>
        {error.atMs !== undefined && <span className="muted">at {error.atMs.toFixed(2)} ms</span>}
      </header>
      <p className="error-message" data-testid="error-message">
        You cancelled this request. Not a failure of the server: nothing is counted against it.
      </p>
      <PartialNote partial={partial} before="the cancel" none="Nothing had arrived yet." />
    </section>
  );
}

export function ErrorView({ error, partial, wholeAnswer = false }: Props) {
  if (error.kind === 'client' && error.code === 'cancelled')
    return <CancelledView error={error} partial={partial} />;
  const body = error.body ? prettyBody(error.body) : null;
  const help = (wholeAnswer ? WHOLE_ANSWER_HELP[error.kind] : undefined) ?? ERROR_KIND_HELP[error.kind] ?? '';
  return (
    <section className={`card error-view kind-${error.kind}`} role="alert" aria-label="Request error">
      <header className="error-head">
        <span className="badge error-kind" data-testid="error-kind" title={help}>
          {error.kind}
        </span>
        <code className="error-code" data-testid="error-code">
          {error.code}
        </code>
        {error.status !== undefined && (
          <span className="badge neutral" data-testid="error-status">
            HTTP {error.status}
          </span>
        )}
        {error.atMs !== undefined && <span className="muted">at {error.atMs.toFixed(2)} ms</span>}
      </header>
      <p className="error-message" data-testid="error-message">
        {error.message}
      </p>
      {(error.location || error.retryAfter) && (
        <dl className="error-hints">
          {error.location && (
            <>
              <dt>Location</dt>
              <dd className="mono" data-testid="error-location">
                {error.location}
              </dd>
            </>
          )}
          {error.retryAfter && (
            <>
              <dt>Retry-After</dt>
              <dd className="mono" data-testid="error-retry-after">
                {/^\d+$/.test(error.retryAfter.trim()) ? `${error.retryAfter.trim()} s` : error.retryAfter}
              </dd>
            </>
          )}
        </dl>
      )}
      <p className="error-help">{help}</p>
      {body && (
        <details open={body.text.length < 2000}>
          <summary>
            {error.kind === 'http' || wholeAnswer ? 'Response body' : 'Raw event'}
            {body.json ? ' (JSON)' : ''}
          </summary>
          <pre className="mono error-body" data-testid="error-body">
            {body.text}
          </pre>
        </details>
      )}
      {!wholeAnswer && (
        <PartialNote partial={partial} before="the failure" none="Nothing arrived before the failure." />
      )}
    </section>
  );
}
