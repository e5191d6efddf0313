/**
 * The summary as text, laid out like `vllm bench serve` prints it (same labels, 50-column rules,
 * `{:<40} {:<10.2f}` rows), so users can put the two side by side; then Tokenscope's own sections.
 */
import type { IoSelfCheck, StallTouches } from './self-check-schema.ts';
import type { CoalescedGaps, MetricStats, RunSummary, VllmMetrics } from './schema.ts';
import { serverGapReason, type ServerSideSummary } from './server-side-schema.ts';
import { bucketText, serverQuantileRange } from './server-quantile.ts';
import { percentileKey } from './summary.ts';
import { turnLabel } from './by-turn.ts';
import { byModelSection } from './by-model-text.ts';
import { toolCallsSection } from './tool-calls-text.ts';
import { DEFINITIONS } from './definitions.ts';
import { VLLM_PERCENTILES } from './schema.ts';
import type { ReplaySummary } from './schema.ts';
import { serverPhasesLines } from '../../tracing/phase-text.ts';
import { serverPrefixCacheText } from './prefix-cache.ts';
import { specDecodeRows } from './spec-decode-text.ts';
import { rolesSection } from './roles-text.ts';
import { uploadRows } from './upload.ts';
import { batchSection, streamsTokens } from './batch.ts';

/** A trace replay: its speedup and how late requests left against the trace (replay-lag.ts). */
function replaySection(r: ReplaySummary): string[] {
  return [
    center('Trace Replay', 50, '-'),
    row('Speedup:', `×${r.speedup}`),
    row('Schedule lag p50 / p99 / max (ms):', `${f2(r.lagP50Ms)} / ${f2(r.lagP99Ms)} / ${f2(r.lagMaxMs)}`),
    row(
      'Replay on schedule:',
      r.flagged ? `NO — lag p99 > ${r.boundMs} ms` : `yes (lag p99 ≤ ${r.boundMs} ms)`,
    ),
  ];
}

/** Python's `"{s:{c}^{n}}".format(...)`: centred, the extra fill char on the right. */
function center(s: string, n = 50, c = '='): string {
  const pad = Math.max(0, n - s.length);
  const left = Math.floor(pad / 2);
  return c.repeat(left) + s + c.repeat(pad - left);
}

function row(label: string, value: string): string {
  return `${label.padEnd(40)} ${value}`;
}

/** Said next to the peak when its per-event counts were spread from a total (peaks.ts). */
export const PEAK_ESTIMATED_NOTE = 'estimated counts: the server sent no per-event token counts';

function peakNote(s: RunSummary): string {
  return s.tokens.peakEstimated ? ` (${PEAK_ESTIMATED_NOTE})` : '';
}

const f2 = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(2);

const SECTIONS: [metric: string, name: string, header: string][] = [
  ['ttft', 'TTFT', 'Time to First Token'],
  ['tpot', 'TPOT', 'Time per Output Token (excl. 1st token)'],
  ['itl', 'ITL', 'Inter-token Latency'],
  ['e2el', 'E2EL', 'End-to-end Latency'],
];

function vllmSection(v: VllmMetrics, metric: string, name: string, header: string): string[] {
  if (v[`mean_${metric}_ms`] === undefined) return [];
  const out = [
    center(header, 50, '-'),
    row(`Mean ${name} (ms):`, f2(v[`mean_${metric}_ms`])),
    row(`Median ${name} (ms):`, f2(v[`median_${metric}_ms`])),
  ];
  for (const p of VLLM_PERCENTILES) {
    const val = v[percentileKey(p, metric)];
    if (val !== undefined) out.push(row(`P${p} ${name} (ms):`, f2(val)));
  }
  return out;
}

function ownSection(s: MetricStats | null, name: string, header: string): string[] {
  if (!s) return [];
  return [
    center(header, 50, '-'),
    row(`Mean ${name} (ms):`, f2(s.mean)),
    row(`Median ${name} (ms):`, f2(s.median)),
    row(`P99 ${name} (ms):`, f2(s.p99)),
    row(`Max ${name} (ms):`, f2(s.max)),
  ];
}

/** "0.91 % (232 of 25600)": the share of chunk gaps a read carried together. */
function coalescedText(c: CoalescedGaps): string {
  return `${(c.share * 100).toFixed(2)} % (${c.gaps} of ${c.totalGaps})`;
}

/**
 * How many ITL gaps the client merged (coalesced: one socket read), and Tokenscope's ITL without
 * them when there were any (vLLM's block above keeps them, as vLLM does).
 */
function coalescedSection(s: RunSummary): string[] {
  const c = s.coalesced;
  if (!c) return [];
  const L = [
    center('Coalesced Gaps (one socket read)', 50, '-'),
    row('Coalesced ITL gaps:', coalescedText(c)),
  ];
  if (c.gaps > 0) {
    L.push("note: left out of Tokenscope's ITL (below, and ITL/token); vLLM's ITL above keeps them");
    const own = s.stats.itl;
    if (own) {
      L.push(
        row('Mean ITL excl. coalesced (ms):', f2(own.count === 0 ? null : own.mean)),
        row('Median ITL excl. coalesced (ms):', f2(own.count === 0 ? null : own.median)),
        row('P99 ITL excl. coalesced (ms):', f2(own.p99)),
        row('Max ITL excl. coalesced (ms):', f2(own.max)),
      );
    }
  }
  return L;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** What the server took from its prefix cache (prefix-cache.ts), beside what the workload expected. */
function prefixCacheSection(s: RunSummary): string[] {
  const c = s.prefixCache;
  if (!c) return [];
  const L = [center('Prefix Cache', 50, '-')];
  if (c.expected)
    L.push(
      row('Expected cached tokens (prefix groups):', `${c.expected.cachedTokens} (${pct(c.expected.ratio)})`),
    );
  if (c.reported === 0) {
    L.push(row('Cached tokens reported:', 'none (the server sent no cached_tokens)'));
    return L;
  }
  L.push(
    row('Cached prompt tokens:', `${c.cachedTokens} of ${c.promptTokens} (${pct(c.ratio)})`),
    row('Requests with a hit:', `${c.hitRequests} of ${c.reported}`),
    row('TTFT p50 hit / miss (ms):', `${f2(c.ttftHit?.median)} / ${f2(c.ttftMiss?.median)}`),
    row('TTFT p90 hit / miss (ms):', `${f2(c.ttftHit?.p90)} / ${f2(c.ttftMiss?.p90)}`),
  );
  return L;
}

/** Runs with reasoning: the answer's first token and where the output tokens went; else nothing. */
function reasoningSection(s: RunSummary): string[] {
  const r = s.reasoning;
  if (!r) return [];
  const about = r.estimatedRequests > 0 ? '~' : '';
  return [
    ...ownSection(s.stats.ttfat ?? null, 'TTFAT', 'Time to First Answer Token'),
    center('Reasoning', 50, '-'),
    row('Requests with reasoning:', String(r.requests)),
    row('Reasoning tokens:', `${about}${r.reasoningTokens}`),
    row('Answer tokens:', `${about}${r.answerTokens}`),
    ...(r.estimatedRequests > 0
      ? [
          `note: split estimated with Tokenscope's tokenizer in ${r.estimatedRequests} requests (no server count)`,
        ]
      : []),
  ];
}

/** Multi-turn runs: one line per turn (TTFT median and P99, E2E median), else nothing. */
function byTurnSection(s: RunSummary): string[] {
  if (!s.byTurn) return [];
  return [
    center('By Turn (multi-turn sessions)', 50, '-'),
    'Turn  Reqs  Input tok  TTFT med  TTFT P99   E2E med',
    ...s.byTurn.map((r) =>
      [
        turnLabel(r).padEnd(4),
        String(r.requests).padStart(5),
        (r.meanInputTokens === null ? '—' : r.meanInputTokens.toFixed(0)).padStart(10),
        f2(r.ttft?.median).padStart(9),
        f2(r.ttft?.p99).padStart(9),
        f2(r.e2e?.median).padStart(9),
      ].join(' '),
    ),
  ];
}

/** Where the output token counts came from, per request (a stream's only). */
function outputCountRows(t: RunSummary['tokens']): string[] {
  return [
    row('Output exact per event (requests):', String(t.outputSource['per-event'])),
    row('Output exact total from usage:', String(t.outputSource['usage-total'])),
    ...(t.outputTokenized
      ? [row("  of them, the server's /tokenize of the text:", String(t.outputTokenized))]
      : []),
    row('Output estimated (1 per event):', String(t.outputSource.estimated)),
  ];
}

/** A client token count with the failed requests' share (the server's counters include them). */
function withFailed(ok: number, failed: number | undefined, estimated = false): string {
  const about = estimated ? '~' : '';
  return failed ? `${about}${ok + failed} (${about}${failed} in failed)` : String(ok);
}

/** What the server's own metrics said over the run (summary.server), or why there are none. */
function serverSection(s: RunSummary): string[] {
  const sv = s.server!;
  const L = [center('Server Side (its own metrics)', 50, '-')];
  L.push(
    row('Read from:', sv.source === 'prometheus' ? `Prometheus ${sv.url} ${sv.selector ?? ''}` : sv.url),
  );
  if (sv.scrapes === 0 || sv.window === null) {
    L.push(row('No server metrics:', serverGapReason(sv)));
    return L;
  }
  // A quantile only known to a wide server bucket is written as the bucket ("0–300").
  const q = (h: typeof sv.ttft, k: 'p50' | 'p99'): string => {
    const range = serverQuantileRange(h, k);
    return range ? bucketText(range) : f2(h?.[k]);
  };
  L.push(
    row('Server profile:', sv.profileName),
    ...(streamsTokens(s)
      ? [
          row(
            'Generated tokens (server / received):',
            `${sv.delta.generationTokens ?? '-'} / ${withFailed(s.vllm.total_output_tokens, s.tokens.failedOutput)}`,
          ),
        ]
      : []),
    row(
      'Prompt tokens (server / sent):',
      `${sv.delta.promptTokens ?? '-'} / ${withFailed(s.vllm.total_input_tokens, s.tokens.failedInput, s.tokens.failedInputEstimated)}`,
    ),
    ...(streamsTokens(s)
      ? [row('Server TTFT p50 / p99 (ms):', `${q(sv.ttft, 'p50')} / ${q(sv.ttft, 'p99')}`)]
      : []),
    row('Server queue time p50 / p99 (ms):', `${q(sv.queueTime, 'p50')} / ${q(sv.queueTime, 'p99')}`),
    row('Server E2E p50 / p99 (ms):', `${q(sv.e2e, 'p50')} / ${q(sv.e2e, 'p99')}`),
    row('Peak running / waiting:', `${sv.peak.running ?? '-'} / ${sv.peak.waiting ?? '-'}`),
    row('Peak KV-cache usage (%):', sv.peak.kvCacheUsage === null ? '-' : f2(sv.peak.kvCacheUsage * 100)),
    row('Preemptions:', String(sv.delta.preemptions ?? '-')),
    ...(sv.prefixCache === undefined
      ? []
      : [row('Server prefix-cache hits:', serverPrefixCacheText(sv.prefixCache))]),
  );
  L.push(...energyLines(sv));
  // Only where the server has it: a line on every run without speculative decoding says nothing.
  if (sv.specDecode) L.push(...specDecodeRows(sv.specDecode).map(([k, v]) => row(k, v)));
  if (sv.failures > 0) L.push(row('Failed scrapes:', `${sv.failures} (${sv.lastError ?? ''})`));
  return L;
}

/** How the joules were had, in words (the text summary and the app's run view). */
export const ENERGY_METHOD = {
  counter: 'energy counter',
  'integrated-power': 'power integrated over scrapes, no energy counter',
  mixed: 'energy counters, power integrated where a GPU had none',
} as const;

/** GPU energy over the run (the target's dcgm-exporter), when it listed telemetry endpoints. */
function energyLines(sv: ServerSideSummary): string[] {
  if (sv.energy === undefined) return [];
  const e = sv.energy;
  const failed = (sv.telemetry ?? []).filter((t) => t.error !== null);
  if (e === null)
    return [
      row('GPU energy:', failed.length ? `- (${failed[0]!.url}: ${failed[0]!.error})` : '- (no GPU data)'),
    ];
  return [
    row(
      `GPU energy (J, ${e.gpus} GPU${e.gpus === 1 ? '' : 's'}):`,
      `${f2(e.joules)} (${ENERGY_METHOD[e.method]})`,
    ),
    row('Energy per output token (J):', e.joulesPerToken === null ? '-' : e.joulesPerToken.toFixed(4)),
    row('Mean GPU power (W):', f2(e.meanPowerW)),
  ];
}

/**
 * Each request counts once, by the connection that carried its response (opened + reused =
 * requests); a retried one went out first on a reused connection the server had closed, so it
 * shows as retried and, for its new connection, as opened — never as reused.
 */
function connectionsText(k: { opened: number; reused: number; retried: number }): string {
  const why =
    k.retried > 0
      ? ' (first sent on a reused connection the server had closed, then on a new one, counted as opened)'
      : '';
  return `${k.opened} opened, ${k.reused} reused, ${k.retried} retried${why}`;
}

/** The loop that stamped every read (the stream-I/O thread's), in the self-check section. */
function ioThreadLines(io: IoSelfCheck): string[] {
  return [
    row(
      `I/O thread${io.threads > 1 ? ` ×${io.threads}` : ''} loop delay p99 / max (ms):`,
      `${f2(io.loopDelayP99Ms)} / ${f2(io.loopDelayMaxMs)}`,
    ),
    row('I/O thread stalls > 5 ms:', `${io.stalls} (${f2(io.stallMs)} ms)`),
    row('I/O thread GC pauses (ms):', `${io.gcCount}, ${f2(io.gcPauseMs)} in all, max ${f2(io.gcMaxMs)}`),
    row('I/O thread busy (%):', io.cpuPct === null ? '—' : f2(io.cpuPct)),
    // Streams not read while the measuring side caught up (electron/engine/io/backlog.ts).
    row(
      'Streams held back (ms):',
      io.holds === 0 ? 'never' : `${io.holds}, ${f2(io.heldMs)} in all, max ${f2(io.heldMaxMs)}`,
    ),
  ];
}

/** "vllm (vLLM bench serve)": whose per-request rules made the numbers. */
function definitionsName(s: RunSummary): string {
  const d = s.definitions ?? 'tokenscope';
  return `${d} (${DEFINITIONS[d].name})`;
}

export function summaryText(s: RunSummary): string {
  const v = s.vllm;
  const title = s.partial
    ? ' Serving Benchmark Result (PARTIAL) '
    : s.cancelled
      ? ' Serving Benchmark Result (CANCELLED) '
      : ' Serving Benchmark Result ';
  const L: string[] = [center(title)];
  L.push(row('Definitions:', definitionsName(s)));
  L.push(row('Successful requests:', String(v.completed)), row('Failed requests:', String(v.failed)));
  if (s.config.maxConcurrency !== null)
    L.push(row('Maximum request concurrency:', String(s.config.maxConcurrency)));
  if (typeof s.config.requestRate === 'number')
    L.push(row('Request rate configured (RPS):', f2(s.config.requestRate)));
  const streams = streamsTokens(s);
  L.push(
    row('Benchmark duration (s):', f2(v.duration)),
    row('Total input tokens:', String(v.total_input_tokens)),
    ...(streams ? [row('Total generated tokens:', String(v.total_output_tokens))] : []),
    row('Request throughput (req/s):', f2(v.request_throughput)),
  );
  if (v.request_goodput !== null) L.push(row('Request goodput (req/s):', f2(v.request_goodput)));
  // Embeddings and rerank stream no token: their batch instead of token rates (batch.ts).
  if (s.batch) L.push(...batchSection(s.batch, row));
  else
    L.push(
      row('Output token throughput (tok/s):', f2(v.output_throughput)),
      row('Peak output token throughput (tok/s):', f2(v.max_output_tokens_per_s) + peakNote(s)),
      row('Peak concurrent requests:', f2(v.max_concurrent_requests)),
      row('Total token throughput (tok/s):', f2(v.total_token_throughput)),
    );
  for (const [m, name, header] of SECTIONS) L.push(...vllmSection(v, m, name, header));

  // Tokenscope's own, after vLLM's block.
  L.push(...reasoningSection(s));
  L.push(...byTurnSection(s));
  L.push(...byModelSection(s));
  L.push(...toolCallsSection(s));
  L.push(...prefixCacheSection(s));
  if (s.upload)
    L.push(center('Images and Upload', 50, '-'), ...uploadRows(s.upload).map(([k, v]) => row(k, v)));
  L.push(...coalescedSection(s));
  // Per token from estimated counts (no per-event counts from the server): said in the heading.
  const estimated = s.tokens.outputSource.estimated > 0 || s.tokens.outputSource['usage-total'] > 0;
  L.push(
    ...ownSection(
      s.stats.itl_per_token,
      'ITL/token',
      estimated ? 'ITL per Token (estimated counts)' : 'Inter-token Latency per Token',
    ),
  );
  L.push(...ownSection(s.stats.client_queue_time, 'Client Queue Time', 'Client-side Queueing'));
  L.push(...ownSection(s.stats.first_event, 'first event', 'First Event (any, incl. empty)'));
  const t = s.tokens;
  if (!s.imported) {
    L.push(
      center('Token Counts', 50, '-'),
      ...(streams ? outputCountRows(t) : []),
      row('Input from server usage:', String(t.inputFromUsage)),
      row('Input estimated by Tokenscope:', String(t.inputEstimated)),
    );
    if (t.inputFromUsage > 0 && streams)
      L.push("note: the server's input count includes its chat template (a 128-token prompt: ~138 on chat)");
    if (t.usageRefused)
      L.push(
        `warning: ${t.usageRefused} request${t.usageRefused > 1 ? 's' : ''}' usage could not be true (more output tokens than max_tokens allows or than arrived): counted from the events`,
      );
  }
  const errs = Object.entries(s.errors);
  if (errs.length > 0) {
    L.push(center('Errors', 50, '-'));
    for (const [k, n] of errs) {
      L.push(row(`${k}:`, String(n)));
      const sample = s.errorSamples?.[k];
      if (sample) L.push(`  e.g. ${sample.replace(/\s+/g, ' ').slice(0, 120)}`);
    }
  }
  if (s.cancelledRequests > 0) L.push(row('Cancelled (not counted):', String(s.cancelledRequests)));
  if (s.warmupRequests > 0) L.push(row('Warm-up requests (not counted):', String(s.warmupRequests)));
  if (s.replay) L.push(...replaySection(s.replay));
  if (s.serverPhases) L.push(...serverPhasesLines(s.serverPhases, (t) => center(t, 50, '-')));
  if (s.selfCheck) {
    const c = s.selfCheck;
    L.push(center('Client Self-check', 50, '-'));
    if (c.io) L.push(...ioThreadLines(c.io));
    L.push(
      row(
        c.io ? 'Main thread loop delay p99 / max (ms):' : 'Event-loop delay p99 / max (ms):',
        `${f2(c.eventLoopDelayP99Ms)} / ${f2(c.eventLoopDelayMaxMs)}`,
      ),
      row('Client CPU mean / worst 1 s (%):', `${f2(c.cpuMeanPct)} / ${f2(c.cpuMaxPct)}`),
      row('Schedule lag p99 (ms):', f2(c.scheduleLagP99Ms)),
    );
    if (c.stallTouches) L.push(...stallRows(c.stallTouches));
    // The client's reading that merged events: the share of ITL gaps it could not measure.
    if (s.coalesced) L.push(row('Coalesced ITL gaps (client read late):', coalescedText(s.coalesced)));
    if (c.connections) L.push(row(`Connections (${c.connections.mode}):`, connectionsText(c.connections)));
    L.push(row('Timing trustworthy:', c.flagged ? `NO — ${c.reasons.join('; ')}` : 'yes'));
  }
  if (s.server) L.push(...serverSection(s));
  if (s.server?.roles?.length) L.push(...rolesSection(s.server.roles));
  if (s.importInfo) {
    L.push(center(`Imported from ${s.source}`, 50, '-'));
    if (s.importInfo.recomputed.length)
      L.push(row('Recomputed from per-request data:', s.importInfo.recomputed.join(', ')));
    if (s.importInfo.reported.length) L.push(row('Taken as reported:', s.importInfo.reported.join(', ')));
    for (const n of s.importInfo.notes) L.push(`note: ${n}`);
  }
  L.push('='.repeat(50));
  return L.map((l) => l.trimEnd()).join('\n') + '\n';
}

/** The events a stall of the stamping loop touched (shared/runs/summary/stall-touches.ts), and which requests. */
function stallRows(st: StallTouches): string[] {
  const L = [
    row(
      `Events stamped in a stall > ${st.boundMs} ms:`,
      st.events === 0
        ? `none (${st.stalls} stall${st.stalls === 1 ? '' : 's'})`
        : `${st.events} in ${st.requests} request${st.requests === 1 ? '' : 's'} (${st.ttft} TTFT, ${st.gaps} ITL gaps)`,
    ),
  ];
  if (st.ids.length > 0)
    L.push(`  requests: ${st.ids.join(', ')}${st.requests > st.ids.length ? ', …' : ''}`);
  return L;
}
