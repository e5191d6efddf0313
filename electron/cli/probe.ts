import type { ChatMessage, RequestSpec } from '../../shared/request.ts';
import {
  EV_COALESCED,
  EV_REASONING,
  EV_CONTENT,
  EV_ERROR,
  EV_TERMINAL,
  EV_TOKENS_EXACT,
  EV_USAGE,
} from '../../shared/request.ts';
import type { RequestRecord } from '../../shared/record.ts';
import type { DialectId } from '../../shared/dialects.ts';
import { otherModelAnswered, otherModelText } from '../../shared/model-answer.ts';
import { coalescedShareText, requestItl } from '../../shared/stats/request-itl.ts';
import { computeRequestStats, type RequestStats } from '../../shared/stats/request-stats.ts';
import type { Summary } from '../../shared/stats/summary.ts';
import { fmtBytes, fmtMs, fmtNum, showText } from '../../shared/format.ts';
import { fireRequest } from '../engine/client.ts';
import { redactUrl, resolveEndpoint } from '../engine/endpoint.ts';
import { discoverModels } from '../engine/models.ts';
import { probeJson } from './probe-json.ts';
import { LETTERS } from '../../shared/runs/letters.ts';
import { errorMessage } from '../../shared/result.ts';

export interface ProbeCliOptions {
  model?: string;
  prompt: string;
  messages?: string;
  dialect: DialectId;
  maxTokens: number;
  temperature?: number;
  ignoreEos?: boolean;
  minTokens?: number;
  extraBody?: string;
  header?: string[];
  apiKey?: string;
  includeUsage: boolean;
  continuousUsage?: boolean;
  /** Commander's --no-trace-headers: false sends no traceparent / x-request-id. */
  traceHeaders?: boolean;
  timeout: number;
  idleTimeout?: number;
  insecure?: boolean;
  raw?: boolean;
  quiet?: boolean;
  json?: boolean;
}

/** Prints the error; its exit code (2: bad usage, 1: the server could not be asked). */
function fail(json: boolean | undefined, kind: string, message: string, code = 2): number {
  if (json) process.stdout.write(JSON.stringify({ error: { kind, message } }) + '\n');
  else process.stderr.write(`error (${kind}): ${message}\n`);
  return code;
}

/** The request for `url`, or the exit code of why there is none (printed). */
async function specFor(url: string, o: ProbeCliOptions): Promise<RequestSpec | number> {
  const headers: Record<string, string> = {};
  for (const h of o.header ?? []) {
    const i = h.indexOf(':');
    if (i <= 0) return fail(o.json, 'client', `--header must be "Name: value", got "${h}"`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  let extraBody: Record<string, unknown> | undefined;
  let messages: ChatMessage[] | undefined;
  try {
    if (o.extraBody) extraBody = JSON.parse(o.extraBody) as Record<string, unknown>;
    if (o.messages) messages = JSON.parse(o.messages) as ChatMessage[];
  } catch (e) {
    return fail(o.json, 'client', `invalid JSON in --extra-body/--messages: ${errorMessage(e)}`);
  }
  const apiKey = o.apiKey ?? process.env.TOKENSCOPE_API_KEY;
  let model = o.model;
  if (!model) {
    const r = await discoverModels(url, o.dialect, { apiKey, headers, insecureTls: o.insecure });
    // The network's word first, and exit 1: the server could not be asked, the usage was fine.
    if (!r.ok)
      return fail(
        o.json,
        r.error.kind,
        `${url}: ${r.error.message} (while listing its models: no --model given)`,
        1,
      );
    if (r.value.models.length === 0)
      return fail(o.json, 'client', `no --model given and ${url} listed none: name one with --model`);
    model = r.value.models[0]!;
  }
  return {
    url,
    dialect: o.dialect,
    model,
    prompt: o.prompt,
    messages,
    params: {
      maxTokens: o.maxTokens,
      temperature: o.temperature,
      ignoreEos: o.ignoreEos,
      minTokens: o.minTokens,
    },
    extraBody,
    headers,
    apiKey,
    includeUsage: o.includeUsage,
    continuousUsage: o.continuousUsage === true,
    timeoutMs: o.timeout,
    idleTimeoutMs: o.idleTimeout,
    insecureTls: o.insecure === true,
    ...(o.traceHeaders === false ? { traceHeaders: false } : {}),
  };
}

/**
 * One streaming request to `url`, or with `url2` the same request to two servers at the same
 * moment: the events of both as they arrive (marked A and B), each summary, then the two side by
 * side with the difference. Exit 1 when a request failed.
 */
export async function runProbe(url: string, o: ProbeCliOptions, url2?: string): Promise<number> {
  const specs: RequestSpec[] = [];
  for (const u of url2 === undefined ? [url] : [url, url2]) {
    const spec = await specFor(u, o);
    if (typeof spec === 'number') return spec;
    specs.push(spec);
  }
  const two = specs.length === 2;
  const live = !o.json && !o.quiet;
  const ac = new AbortController();
  const onSig = (): void => ac.abort();
  process.once('SIGINT', onSig);
  const tag = (i: number) => (two ? `${LETTERS[i]} ` : '');
  if (live)
    specs.forEach((spec, i) =>
      // The endpoint it posts to (the dialect's path added to a base URL), credentials left out.
      process.stdout.write(
        `${tag(i)}→ POST ${redactUrl(resolveEndpoint(spec.url, spec.dialect))} (${spec.dialect}, model ${spec.model})\n`,
      ),
    );
  const recs = await Promise.all(
    specs.map((spec, i) => {
      let printed = 0;
      let lastContentT: number | null = null;
      return fireRequest(spec, {
        signal: ac.signal,
        onProgress: live
          ? (r) => {
              for (; printed < r.events.n; printed++) {
                const line = eventLine(r, printed, lastContentT, o.raw === true);
                if ((r.events.flags[printed]! & EV_CONTENT) !== 0) lastContentT = r.events.t[printed]!;
                process.stdout.write(tag(i) + line + '\n');
              }
            }
          : undefined,
      });
    }),
  );
  process.removeListener('SIGINT', onSig);
  // A server that ignores `model` (llama.cpp) names what it served: said when that is another one.
  recs.forEach((rec, i) => {
    const other = otherModelAnswered(specs[i]!.model, rec.responseModel);
    if (other !== null) process.stderr.write(`${tag(i)}warning: ${otherModelText(specs[i]!.model, other)}\n`);
  });

  if (o.json) {
    const objs = recs.map((rec, i) => probeJson(rec, specs[i]!));
    process.stdout.write(JSON.stringify(two ? objs : objs[0]) + '\n');
  } else if (two) {
    recs.forEach((rec, i) => process.stdout.write(`\n${LETTERS[i]}: ${rec.url}` + summaryText(rec)));
    process.stdout.write('\n' + sideBySideText(recs[0]!, recs[1]!));
  } else {
    process.stdout.write(summaryText(recs[0]!));
  }
  return recs.some((r) => r.error) ? 1 : 0;
}

/** Two requests' numbers in columns, with B − A (and the ratio, for latencies). */
function sideBySideText(a: RequestRecord, b: RequestRecord): string {
  const sa = computeRequestStats(a);
  const sb = computeRequestStats(b);
  // Tokenscope's ITL, coalesced gaps left out, as in the app (shared/stats/request-itl.ts).
  const ia = requestItl(sa).token;
  const ib = requestItl(sb).token;
  const rows: [string, number | null | undefined, number | null | undefined, 'ms' | 'tok/s' | ''][] = [
    ['first event', sa.firstEventMs, sb.firstEventMs, 'ms'],
    ['TTFT', sa.ttftMs, sb.ttftMs, 'ms'],
    ['ITL/token p50', ia?.median, ib?.median, 'ms'],
    ['ITL/token p99', ia?.p99, ib?.p99, 'ms'],
    ['TPOT', sa.tpotMs, sb.tpotMs, 'ms'],
    ['E2E', sa.e2eMs, sb.e2eMs, 'ms'],
    ['tok/s overall', sa.tokensPerSecond, sb.tokensPerSecond, 'tok/s'],
    ['output tokens', sa.outputTokens, sb.outputTokens, ''],
  ];
  const val = (v: number | null | undefined, unit: string) =>
    v === null || v === undefined || !Number.isFinite(v)
      ? '—'
      : unit === 'ms'
        ? fmtMs(v)
        : unit === 'tok/s'
          ? `${fmtNum(v)} tok/s`
          : String(v);
  const diff = (x: number | null | undefined, y: number | null | undefined, unit: string) => {
    if (x === null || x === undefined || y === null || y === undefined) return '';
    const d = y - x;
    const sign = d > 0 ? '+' : d < 0 ? '−' : '±';
    const abs =
      unit === 'ms'
        ? fmtMs(Math.abs(d))
        : unit === 'tok/s'
          ? `${fmtNum(Math.abs(d))} tok/s`
          : String(Math.abs(d));
    return x !== 0 ? `${sign}${abs} (${sign}${Math.abs((d / x) * 100).toFixed(0)} %)` : `${sign}${abs}`;
  };
  // A failed request's numbers (E2E to the failure, tokens before it) are not comparable.
  const failed = a.error !== null || b.error !== null;
  const outcome = (r: RequestRecord) => (r.error ? `${r.error.kind}/${r.error.code}` : 'ok');
  const table = [
    ['', 'A', 'B', 'B − A'],
    ['outcome', outcome(a), outcome(b), ''],
    ...rows.map(([n, x, y, u]) => [n, val(x, u), val(y, u), failed ? '' : diff(x, y, u)]),
  ];
  const w = [0, 1, 2, 3].map((c) => Math.max(...table.map((r) => r[c]!.length)));
  return (
    table
      .map((r) =>
        r
          .map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!)))
          .join('   ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function eventLine(r: RequestRecord, i: number, lastContentT: number | null, raw: boolean): string {
  const e = r.events;
  const f = e.flags[i]!;
  const t = e.t[i]!;
  const gap = (f & EV_CONTENT) !== 0 && lastContentT !== null ? `+${(t - lastContentT).toFixed(2)}` : '';
  const tags: string[] = [];
  if ((f & EV_CONTENT) === 0)
    tags.push(
      (f & EV_TERMINAL) !== 0
        ? 'end'
        : (f & EV_USAGE) !== 0
          ? 'usage'
          : (f & EV_ERROR) !== 0
            ? 'ERROR'
            : 'empty',
    );
  if ((f & EV_COALESCED) !== 0) tags.push('coalesced');
  if ((f & EV_REASONING) !== 0) tags.push('reasoning');
  const tok = (f & EV_CONTENT) !== 0 ? `${e.tokens[i]}${(f & EV_TOKENS_EXACT) !== 0 ? '' : '~'} tok` : '';
  const text = e.text[i] ? showText(e.text[i]!) : '';
  let line = `${t.toFixed(2).padStart(10)} ms ${gap.padStart(9)}  ${tok.padEnd(7)} ${text} ${tags.length ? `[${tags.join(', ')}]` : ''}`;
  if (raw && r.raw?.[i] !== undefined) line += `\n${' '.repeat(14)}raw: ${r.raw[i]}`;
  return line.trimEnd();
}

function summaryText(rec: RequestRecord): string {
  const s = computeRequestStats(rec);
  const p = rec.phases;
  const lines = [
    '',
    `status        ${rec.status ?? '—'}${rec.serverRequestId ? `   server request id ${rec.serverRequestId}` : ''}`,
    `phases        connected ${fmtMs(p.connectedMs)} · written ${fmtMs(p.requestWrittenMs)} · headers ${fmtMs(p.headersMs)} · first byte ${fmtMs(p.firstByteMs)} · end ${fmtMs(p.endMs)}`,
    `first event   ${fmtMs(s.firstEventMs)}`,
    `TTFT          ${fmtMs(s.ttftMs)}`,
    ...reasoningLines(s),
    ...itlLines(s),
    `TPOT          ${fmtMs(s.tpotMs)}`,
    `E2E           ${fmtMs(s.e2eMs)}`,
    `output tokens ${s.outputTokens} (${s.tokenSource === 'per-event' ? 'exact, per event' : s.tokenSource === 'usage-total' ? 'exact total from usage; per-event estimated' : 'estimated: 1 per content event'})`,
    ...(s.tokenDoubt ? [`warning       ${s.tokenDoubt}: counted from the events`] : []),
    `throughput    ${fmtNum(s.tokensPerSecond)} tok/s overall · ${fmtNum(s.decodeTokensPerSecond)} tok/s after first token`,
    `events        ${s.events} (${s.contentEvents} with content, ${s.coalescedEvents} coalesced, ${s.multiTokenEvents} multi-token) · ${rec.reads} reads · ${fmtBytes(rec.bytes)}`,
    `finish        ${rec.finishReason ?? '—'}${rec.usage ? `   usage prompt ${rec.usage.promptTokens ?? '—'} / completion ${rec.usage.completionTokens ?? '—'}` : ''}`,
  ];
  if (rec.error) {
    lines.push(
      `ERROR         ${rec.error.kind}/${rec.error.code}: ${rec.error.message}${rec.error.atMs !== undefined ? ` (at ${rec.error.atMs.toFixed(2)} ms)` : ''}`,
    );
    if (rec.error.body && rec.error.kind === 'http')
      lines.push(`              body: ${rec.error.body.slice(0, 500)}`);
  }
  if (rec.reasoning) lines.push('', `reasoning: ${rec.reasoning}`);
  if (rec.text) lines.push('', `text: ${rec.text}`);
  return lines.join('\n') + '\n';
}

const itlRow = (x: Summary | null): string =>
  `mean ${fmtMs(x?.mean)} · p50 ${fmtMs(x?.median)} · p99 ${fmtMs(x?.p99)} · max ${fmtMs(x?.max)}`;

/**
 * Tokenscope's ITL as the app's statistics show it (coalesced gaps left out); when some gaps were
 * coalesced, how many, and vLLM's every-gap figures below, labelled as such.
 */
function itlLines(s: RequestStats): string[] {
  const itl = requestItl(s);
  const lines = [`ITL per chunk ${itlRow(itl.chunk)}`, `ITL per token ${itlRow(itl.token)}`];
  if (itl.coalescedGaps === 0) return lines;
  return [
    ...lines,
    `coalesced     ${coalescedShareText(itl.coalescedGaps, itl.totalGaps)} of the gaps came in one read with the event before (~0 ms by construction): left out of ITL`,
    `  every gap, per chunk (vLLM's ITL) ${itlRow(itl.everyGapChunk)}`,
    `  every gap, per token              ${itlRow(itl.everyGapToken)}`,
  ];
}

/** Requests with reasoning: when it and the answer began, and the tokens of each (else nothing). */
function reasoningLines(s: RequestStats): string[] {
  if (s.reasoningTokens === null) return [];
  const about = s.reasoningTokensExact ? '' : '~';
  const how = s.reasoningTokensExact ? "the server's count" : "estimated with Tokenscope's tokenizer";
  return [
    `TTFAT         ${fmtMs(s.firstAnswerMs)} (first answer token; reasoning began at ${fmtMs(s.firstReasoningMs)})`,
    `reasoning     ${about}${s.reasoningTokens} tokens · answer ${about}${s.answerTokens} tokens (${how})`,
  ];
}
