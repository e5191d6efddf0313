/**
 * The request's numbers, each with its definition on hover. Every value comes from
 * computeRequestStats (shared/stats/request-stats.ts) and summarize (shared/stats/summary.ts);
 * nothing is re-derived here. ITL leaves coalesced gaps out (two events of one socket read: ~0 ms by
 * construction); the panel says how many there were.
 */
import { useMemo } from 'react';
import { fmtBytes, fmtMs, fmtNum } from '../../shared/format.ts';
import type { TokenSource } from '../../shared/request.ts';
import type { RequestStats } from '../../shared/stats/request-stats.ts';
import { requestItl } from '../../shared/stats/request-itl.ts';
import type { Summary } from '../../shared/stats/summary.ts';
import type { RecordDigest } from './record-view.ts';
import { otherModelAnswered } from '../../shared/model-answer.ts';
import { COALESCED_DEF, coalescedShareText } from '../core/coalesced-text.ts';

const SRC = 'shared/stats/request-stats.ts';
const RSRC = 'shared/stats/reasoning-stats.ts';

/** @internal exported for its tests */
export const DEFS = {
  firstEvent: `First event: arrival of the first event of any kind, incl. role-only or empty chunks (TTFB-like). ${SRC}`,
  ttft: `TTFT: arrival of the first event carrying at least one generated token of any kind — reasoning included, as vLLM's client counts it — ms since the request started (before connect). ${SRC}`,
  firstReasoning: `First reasoning token: arrival of the first event carrying reasoning (thinking) and no answer. ${RSRC}`,
  ttfat: `TTFAT, time to first answer token: arrival of the first event of the answer (text or tool call), after the reasoning (AIPerf's TTFO). ${RSRC}`,
  reasoningTokens: `Reasoning and answer tokens: the server's reasoning_tokens when it reports them, else the server's per-event counts, else the output split in the ratio of Tokenscope's tokenizer counts of the two texts (estimated, ~). ${RSRC}`,
  tpot: `TPOT: (E2E − TTFT) / (output tokens − 1); 0 for single-token outputs (vLLM's definition). ${SRC}`,
  e2e: `E2E: end of stream − start (start is taken before connecting). ${SRC}`,
  itlChunk: `ITL per chunk: gaps between consecutive content events (vLLM bench serve's definition), coalesced gaps (two events of one socket read) left out. ${SRC}`,
  itlToken: `ITL per token: each gap divided by the tokens of the later event, counted once per token — right when servers send several tokens per event; the events of one socket read count as one arrival. ${SRC}`,
  coalescedGaps: `${COALESCED_DEF} ${SRC}`,
  tps: `Output tokens / E2E seconds. ${SRC}`,
  decode: `(Output tokens − 1) / (E2E − TTFT) seconds: the decode rate after the first token. ${SRC}`,
  tokens: `Output tokens: exact per event when the server says (vLLM continuous usage, TGI, llama.cpp), exact in total from the final usage, or estimated at 1 per content event. ${SRC}`,
  chunks: `Content events: events that carried generated output. ${SRC}`,
  events: 'All dispatched events, including empty, usage and end events.',
  coalesced: `Content events whose socket read carried other events too: their time is the read's time. ${SRC}`,
  multi: `Content events carrying more than one token (stream interval, speculative decoding). ${SRC}`,
  maxGap: `Longest gap between consecutive content events. ${SRC}`,
} as const;

export function tokenSourceLabel(s: TokenSource): string {
  switch (s) {
    case 'per-event':
      return 'exact (server, per event)';
    case 'usage-total':
      return 'exact total (final usage); per-event estimated';
    case 'estimated':
      return 'estimated (1 per content event)';
  }
}

interface Props {
  stats: RequestStats | null;
  digest: RecordDigest | null;
}

/**
 * The model the response named. A server that serves what it has loaded whatever the name
 * (llama.cpp) answers as another model than asked: said here in warning colour, as probe and run's
 * test request say it (shared/model-answer.ts decides what counts as another model).
 */
function ModelRow({ digest }: { digest: RecordDigest | null }) {
  const answered = digest?.responseModel;
  const other = digest ? otherModelAnswered(digest.model, answered) : null;
  return (
    <div
      className={`stat${other ? ' warn' : ''}`}
      title={
        other
          ? `Asked for "${digest!.model}"; the server answered as "${other}". It may serve what it has loaded whatever the name (llama.cpp does): check the model.`
          : 'The model the response named'
      }
    >
      <dt>Model</dt>
      <dd data-testid="stats-model">{other ? `⚠ ${other} (asked ${digest!.model})` : (answered ?? '—')}</dd>
    </div>
  );
}

function Row({
  label,
  value,
  title,
  testId,
  strong,
}: {
  label: string;
  value: string;
  title?: string;
  testId?: string;
  strong?: boolean;
}) {
  return (
    <div className={`stat${strong ? ' strong' : ''}`} title={title}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function SummaryRows({ name, s, title }: { name: string; s: Summary | null; title: string }) {
  return (
    <div className="stat-summary" title={title}>
      <div className="stat-summary-name">
        {name} <span className="muted">{s ? `n=${s.count}` : ''}</span>
      </div>
      <div className="stat-summary-grid">
        <span>mean</span>
        <span>p50</span>
        <span>p99</span>
        <span>max</span>
        <b>{fmtMs(s?.mean)}</b>
        <b>{fmtMs(s?.median)}</b>
        <b>{fmtMs(s?.p99)}</b>
        <b>{fmtMs(s?.max)}</b>
      </div>
    </div>
  );
}

/** Token usage as the server reported it (final usage), one line. */
function usageText(u: NonNullable<RecordDigest['usage']>): string {
  return `prompt ${u.promptTokens ?? '—'} · completion ${u.completionTokens ?? '—'} · total ${u.totalTokens ?? '—'}${u.cachedTokens != null ? ` · cached ${u.cachedTokens}` : ''}`;
}

/** When each phase of the request happened, ms since it started. */
function Phases({ phases: p }: { phases: RecordDigest['phases'] | undefined }) {
  return (
    <>
      <h4 title="Times of the request's phases, ms since the request started (before connect)">Phases</h4>
      <ol className="phases">
        <li title="TCP (and TLS) connection established; ~0 for a reused socket">
          <span>connected</span>
          <b>{fmtMs(p?.connectedMs)}</b>
        </li>
        <li title="The whole request body was handed to the socket">
          <span>request written</span>
          <b>{fmtMs(p?.requestWrittenMs)}</b>
        </li>
        <li title="Response status line and headers parsed">
          <span>headers</span>
          <b>{fmtMs(p?.headersMs)}</b>
        </li>
        <li title="First byte of the response body">
          <span>first byte</span>
          <b>{fmtMs(p?.firstByteMs)}</b>
        </li>
        <li title="The stream ended (cleanly or not)">
          <span>end</span>
          <b>{fmtMs(p?.endMs)}</b>
        </li>
      </ol>
    </>
  );
}

/** Requests that reasoned: when the reasoning and the answer began. */
function ReasoningTimes({ stats }: { stats: RequestStats }) {
  return (
    <>
      <Row
        label="First reasoning"
        value={fmtMs(stats.firstReasoningMs)}
        title={DEFS.firstReasoning}
        testId="stats-first-reasoning"
      />
      <Row label="TTFAT" value={fmtMs(stats.firstAnswerMs)} title={DEFS.ttfat} testId="stats-ttfat" strong />
    </>
  );
}

/** Requests that reasoned: the output tokens split into reasoning and answer (~: estimated). */
function ReasoningTokens({ stats }: { stats: RequestStats }) {
  const about = stats.reasoningTokensExact ? '' : '~';
  return (
    <>
      <Row
        label="Reasoning tokens"
        value={`${about}${stats.reasoningTokens}`}
        title={DEFS.reasoningTokens}
        testId="stats-reasoning-tokens"
      />
      <Row
        label="Answer tokens"
        value={`${about}${stats.answerTokens}`}
        title={DEFS.reasoningTokens}
        testId="stats-answer-tokens"
      />
    </>
  );
}

export function StatsPanel({ stats, digest }: Props) {
  // Tokenscope's ITL: coalesced gaps left out (shared/stats/request-itl.ts, as `tokenscope probe`).
  const itl = useMemo(() => (stats ? requestItl(stats) : null), [stats]);
  const chunk = itl?.chunk ?? null;
  const token = itl?.token ?? null;
  const u = digest?.usage;
  return (
    <section className="card stats" aria-label="Request statistics">
      <h3>Statistics</h3>
      <dl className="stat-grid">
        <Row label="TTFT" value={fmtMs(stats?.ttftMs)} title={DEFS.ttft} testId="stats-ttft" strong />
        <Row
          label="First event"
          value={fmtMs(stats?.firstEventMs)}
          title={DEFS.firstEvent}
          testId="stats-first-event"
        />
        {stats && stats.reasoningTokens !== null && <ReasoningTimes stats={stats} />}
        <Row label="TPOT" value={fmtMs(stats?.tpotMs)} title={DEFS.tpot} testId="stats-tpot" strong />
        <Row label="E2E" value={fmtMs(stats?.e2eMs)} title={DEFS.e2e} testId="stats-e2e" strong />
        <Row label="Tokens/s" value={fmtNum(stats?.tokensPerSecond)} title={DEFS.tps} testId="stats-tps" />
        <Row label="Decode tok/s" value={fmtNum(stats?.decodeTokensPerSecond)} title={DEFS.decode} />
      </dl>
      <SummaryRows name="ITL per chunk" s={chunk} title={DEFS.itlChunk} />
      <SummaryRows
        name={stats && stats.tokenSource !== 'per-event' ? 'ITL per token (est.)' : 'ITL per token'}
        s={token}
        title={
          stats && stats.tokenSource !== 'per-event'
            ? `${DEFS.itlToken} Estimated here: the server sent no per-event token counts, so each gap is spread over estimated counts.`
            : DEFS.itlToken
        }
      />
      {stats && stats.coalescedGaps > 0 && (
        <p className="caption muted" data-testid="stats-coalesced-gaps" title={DEFS.coalescedGaps}>
          Coalesced gaps {coalescedShareText(stats.coalescedGaps, stats.itlChunkMs.length)} — left out of ITL;
          vLLM&apos;s ITL keeps them
        </p>
      )}
      <dl className="stat-grid">
        <Row
          label="Output tokens"
          value={stats ? String(stats.outputTokens) : '—'}
          title={DEFS.tokens}
          testId="stats-output-tokens"
          strong
        />
        {stats && stats.reasoningTokens !== null && <ReasoningTokens stats={stats} />}
        <Row
          label="Token count"
          value={
            stats ? tokenSourceLabel(stats.tokenSource) + (stats.tokenDoubt ? ' (usage refused)' : '') : '—'
          }
          title={stats?.tokenDoubt ? `${stats.tokenDoubt}: counted from the events` : DEFS.tokens}
          testId="stats-token-source"
        />
        <Row
          label="Chunks"
          value={stats ? String(stats.contentEvents) : '—'}
          title={DEFS.chunks}
          testId="stats-chunks"
        />
        <Row label="Events" value={stats ? String(stats.events) : '—'} title={DEFS.events} />
        <Row
          label="Coalesced"
          value={stats ? String(stats.coalescedEvents) : '—'}
          title={DEFS.coalesced}
          testId="stats-coalesced"
        />
        <Row label="Multi-token" value={stats ? String(stats.multiTokenEvents) : '—'} title={DEFS.multi} />
        <Row label="Max gap" value={fmtMs(stats?.maxGapMs)} title={DEFS.maxGap} />
        <Row
          label="Bytes"
          value={digest ? `${fmtBytes(digest.bytes)} in ${digest.reads} reads` : '—'}
          title="Response body bytes and socket reads"
        />
        <Row
          label="HTTP status"
          value={digest?.status != null ? String(digest.status) : '—'}
          title="Status of the response"
          testId="stats-status"
        />
        <Row
          label="Finish reason"
          value={digest?.finishReason ?? '—'}
          title="Why generation stopped, as the server said"
          testId="stats-finish"
        />
        <ModelRow digest={digest} />
        <Row
          label="Usage"
          value={u ? usageText(u) : '—'}
          title="Token usage reported by the server (final usage)"
        />
        <Row
          label="Terminated"
          value={digest ? (digest.terminated ? 'yes (proper end marker)' : 'no end marker') : '—'}
          title="The stream ended with its dialect's proper terminator ([DONE], done:true, …)"
        />
      </dl>
      <Phases phases={digest?.phases} />
    </section>
  );
}
