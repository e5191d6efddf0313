import type { ChatMessage, RequestSpec } from '../../shared/request.ts';
import {
  EV_COALESCED,
  EV_CONTENT,
  EV_ERROR,
  EV_TERMINAL,
  EV_TOKENS_EXACT,
  EV_USAGE,
} from '../../shared/request.ts';
import type { RequestRecord } from '../../shared/record.ts';
import type { DialectId } from '../../shared/dialects.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { summarize } from '../../shared/stats/summary.ts';
import { fmtBytes, fmtMs, fmtNum, showText } from '../../shared/format.ts';
import { fireRequest } from '../engine/client.ts';
import { discoverModels } from '../engine/models.ts';
import { probeJson } from './probe-json.ts';

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
  header: string[];
  apiKey?: string;
  includeUsage: boolean;
  continuousUsage?: boolean;
  timeout: number;
  idleTimeout?: number;
  insecure?: boolean;
  raw?: boolean;
  quiet?: boolean;
  json?: boolean;
}

function fail(json: boolean | undefined, kind: string, message: string): number {
  if (json) process.stdout.write(JSON.stringify({ error: { kind, message } }) + '\n');
  else process.stderr.write(`error (${kind}): ${message}\n`);
  return 2;
}

export async function runProbe(url: string, o: ProbeCliOptions): Promise<number> {
  const headers: Record<string, string> = {};
  for (const h of o.header) {
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
    return fail(o.json, 'client', `invalid JSON in --extra-body/--messages: ${(e as Error).message}`);
  }
  const apiKey = o.apiKey ?? process.env.TOKENSCOPE_API_KEY;
  let model = o.model;
  if (!model) {
    const r = await discoverModels(url, o.dialect, { apiKey, headers, insecureTls: o.insecure });
    if (!r.ok || r.value.models.length === 0)
      return fail(
        o.json,
        r.ok ? 'client' : r.error.kind,
        `no --model given and the server listed none${r.ok ? '' : `: ${r.error.message}`}`,
      );
    model = r.value.models[0]!;
  }
  const spec: RequestSpec = {
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
  };

  const live = !o.json && !o.quiet;
  const ac = new AbortController();
  const onSig = (): void => ac.abort();
  process.once('SIGINT', onSig);
  let printed = 0;
  let lastContentT: number | null = null;
  if (live) process.stdout.write(`→ POST ${url} (${o.dialect}, model ${model})\n`);
  const rec = await fireRequest(spec, {
    signal: ac.signal,
    onProgress: live
      ? (r) => {
          for (; printed < r.events.n; printed++) {
            const line = eventLine(r, printed, lastContentT, o.raw === true);
            if ((r.events.flags[printed]! & EV_CONTENT) !== 0) lastContentT = r.events.t[printed]!;
            process.stdout.write(line + '\n');
          }
        }
      : undefined,
  });
  process.removeListener('SIGINT', onSig);

  if (o.json) {
    process.stdout.write(JSON.stringify(probeJson(rec, spec)) + '\n');
  } else {
    process.stdout.write(summaryText(rec));
  }
  return rec.error ? 1 : 0;
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
  const tok = (f & EV_CONTENT) !== 0 ? `${e.tokens[i]}${(f & EV_TOKENS_EXACT) !== 0 ? '' : '~'} tok` : '';
  const text = e.text[i] ? showText(e.text[i]!) : '';
  let line = `${t.toFixed(2).padStart(10)} ms ${gap.padStart(9)}  ${tok.padEnd(7)} ${text} ${tags.length ? `[${tags.join(', ')}]` : ''}`;
  if (raw && r.raw?.[i] !== undefined) line += `\n${' '.repeat(14)}raw: ${r.raw[i]}`;
  return line.trimEnd();
}

export function summaryText(rec: RequestRecord): string {
  const s = computeRequestStats(rec);
  const itl = summarize(s.itlChunkMs);
  const itlTok = summarize(s.itlTokenMs);
  const p = rec.phases;
  const lines = [
    '',
    `status        ${rec.status ?? '—'}${rec.serverRequestId ? `   server request id ${rec.serverRequestId}` : ''}`,
    `phases        connected ${fmtMs(p.connectedMs)} · written ${fmtMs(p.requestWrittenMs)} · headers ${fmtMs(p.headersMs)} · first byte ${fmtMs(p.firstByteMs)} · end ${fmtMs(p.endMs)}`,
    `first event   ${fmtMs(s.firstEventMs)}`,
    `TTFT          ${fmtMs(s.ttftMs)}`,
    `ITL per chunk mean ${fmtMs(itl?.mean)} · p50 ${fmtMs(itl?.median)} · p99 ${fmtMs(itl?.p99)} · max ${fmtMs(itl?.max)}`,
    `ITL per token mean ${fmtMs(itlTok?.mean)} · p50 ${fmtMs(itlTok?.median)} · p99 ${fmtMs(itlTok?.p99)} · max ${fmtMs(itlTok?.max)}`,
    `TPOT          ${fmtMs(s.tpotMs)}`,
    `E2E           ${fmtMs(s.e2eMs)}`,
    `output tokens ${s.outputTokens} (${s.tokenSource === 'per-event' ? 'exact, per event' : s.tokenSource === 'usage-total' ? 'exact total from usage; per-event estimated' : 'estimated: 1 per content event'})`,
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
  if (rec.text) lines.push('', `text: ${rec.text}`);
  return lines.join('\n') + '\n';
}
