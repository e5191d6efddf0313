/**
 * A non-streamed request's phases (embeddings, rerank): connect, request written, the wait until
 * the first byte (the body's upload plus the server's work: the run summary's "upload"), then the
 * answer's download — the first byte starts the whole answer, there is no token to time — as a
 * waterfall on one ms axis with each boundary's exact time; beside it E2E, the sizes and the
 * server's own usage.
 */
import { fmtBytes, fmtMs } from '../../../shared/format.ts';
import type { Phases } from '../../../shared/request.ts';
import type { RecordDigest } from '../record-view.ts';

interface Segment {
  key: string;
  label: string;
  from: number;
  to: number;
  title: string;
}

const MARKS = [
  ['connect', 'connect', 'connectedMs', 'Start (before connect) → connection open (TCP/TLS)'],
  [
    'write',
    'request written',
    'requestWrittenMs',
    'Connection open → the request body written to the socket',
  ],
  [
    'wait',
    'upload + server',
    'firstByteMs',
    'Request written → first response byte: the body reaching the server and the server embedding or scoring it (the run summary’s “upload”)',
  ],
  ['download', 'response', 'endMs', "First byte → last byte: the answer's one JSON document arriving"],
] as const;

/** The phases that happened, in order; a boundary not reached ends the list. @internal exported for its tests */
export function poolingSegments(p: Phases): Segment[] {
  const out: Segment[] = [];
  let from = 0;
  for (const [key, label, field, title] of MARKS) {
    const at = p[field];
    if (at === null) break;
    out.push({ key, label, from, to: at, title });
    from = at;
  }
  return out;
}

function Row({ label, value, title, id }: { label: string; value: string; title: string; id?: string }) {
  return (
    <div className="stat" title={title}>
      <dt>{label}</dt>
      <dd data-testid={id}>{value}</dd>
    </div>
  );
}

function Waterfall({ p }: { p: Phases }) {
  const segs = poolingSegments(p);
  const total = Math.max(p.endMs ?? segs.at(-1)?.to ?? 0, 1e-6);
  return (
    <div className="waterfall" data-testid="pooling-waterfall">
      {segs.map((s) => (
        <div className="wf-row" key={s.key} title={s.title}>
          <span className="wf-label">{s.label}</span>
          <span className="wf-track">
            <span
              className={`wf-bar wf-${s.key}`}
              style={{
                left: `${(s.from / total) * 100}%`,
                width: `${Math.max(((s.to - s.from) / total) * 100, 0.4)}%`,
              }}
            />
          </span>
          <span className="wf-ms mono">{fmtMs(s.to - s.from)}</span>
          <span className="wf-at mono muted">at {fmtMs(s.to)}</span>
        </div>
      ))}
    </div>
  );
}

function dimensionText(d: RecordDigest): string {
  if (d.batch?.dimension != null) return String(d.batch.dimension);
  const first = d.answer?.kind === 'embeddings' ? d.answer.items[0] : undefined;
  return first?.dimension != null ? `${first.dimension}${first.base64 ? ' (base64)' : ''}` : '—';
}

export function PoolingPhases({ digest }: { digest: RecordDigest }) {
  const p = digest.phases;
  const u = digest.usage;
  const b = digest.batch;
  const e2e = p.endMs;
  const tps = u?.promptTokens != null && e2e ? (u.promptTokens / e2e) * 1000 : null;
  const rerank = digest.dialect === 'rerank';
  return (
    <section className="card pooling-phases" aria-label="Request phases" data-testid="pooling-phases">
      <header className="card-head">
        <h3 title="ms since the request started (before connect)">Request phases</h3>
        <span className="muted">one JSON answer, not a stream: no token arrivals to time</span>
      </header>
      <Waterfall p={p} />
      <dl className="stat-grid" data-testid="pooling-facts">
        <Row
          label="E2E"
          value={fmtMs(e2e)}
          title="End of the answer − start (before connect)"
          id="pooling-e2e"
        />
        <Row
          label="First byte"
          value={fmtMs(p.firstByteMs)}
          title="The answer's first byte; the rest follows at once"
        />
        <Row
          label="Request body"
          value={digest.requestBytes !== undefined ? fmtBytes(digest.requestBytes) : '—'}
          title="The JSON body sent (its Content-Length)"
          id="pooling-request-bytes"
        />
        <Row
          label="Response"
          value={fmtBytes(digest.bytes)}
          title="Bytes of the answer's body"
          id="pooling-bytes"
        />
        <Row
          label="Prompt tokens"
          value={u?.promptTokens != null ? String(u.promptTokens) : '— (no usage)'}
          title={`usage.prompt_tokens as the server reported it: every ${rerank ? 'query + document pair' : 'input'}'s tokens`}
          id="pooling-prompt-tokens"
        />
        <Row
          label="Input tok/s"
          value={tps !== null ? tps.toFixed(0) : '—'}
          title="Prompt tokens / E2E seconds"
        />
        <Row
          label={rerank ? 'Documents → results' : 'Inputs → vectors'}
          value={b ? `${b.inputs} → ${b.results}` : '—'}
          title="What the request carried and what the answer held (top_n may ask for fewer)"
          id="pooling-batch"
        />
        {rerank ? (
          <Row
            label="Model answered"
            value={digest.responseModel ?? '—'}
            title="The model the answer named"
          />
        ) : (
          <Row
            label="Dimension"
            value={dimensionText(digest)}
            title="The vectors' length (base64 vectors: decoded as float32 for this view)"
          />
        )}
      </dl>
    </section>
  );
}
