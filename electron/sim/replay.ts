/**
 * Replay: serve a captured response body (e.g. any file in test-corpus/sse/) to every POST,
 * event by event, so a client can be tested against real bytes of servers we do not run.
 *
 * - .sse: events split after each blank line (LF, CRLF or CR line ends, test-corpus/FORMATS.md §1); the
 *   concatenation of the writes is the file, byte for byte;
 * - .ndjson: one write per line; .json: one write, with the status taken from a `http-NNN` in the
 *   file name (corpus convention), else 200;
 * - timing 'interval': one event every intervalMs; 'original': gaps from Ollama-style
 *   `created_at` timestamps when the events have them, else the interval.
 * Ground-truth tokens per event are estimates read from the event (1 per content event, TGI one
 * per event, llama.cpp `tokens.length`); kinds: [DONE]/final events 'done', errors 'error'.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, basename } from 'node:path';
import type { GroundTruthLog } from './ground-truth.ts';
import { parseRfc3339 } from './json-style.ts';
import { MAX_CATCH_UP_MS } from './scheduler.ts';
import type { GroundTruthKind, ReplayOptions } from './types.ts';

interface ReplayEvent {
  data: string;
  /** Delay after the previous event (the first: after the headers). */
  delayMs: number;
  tokens: number;
  kind: GroundTruthKind;
}

export interface ReplayBody {
  status: number;
  contentType: string;
  events: ReplayEvent[];
}

/** Split SSE text into events, each keeping its own terminating blank line(s). @internal exported for its tests */
export function splitSse(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\r\n|\r|\n)(?:\r\n|\r|\n)+/g;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push(text.slice(start, m.index + m[0].length));
    start = m.index + m[0].length;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

function splitNdjson(text: string): string[] {
  return text.split(/(?<=\n)/).filter((l) => l.length > 0);
}

/** The JSON payload of an event: SSE data lines joined, or the NDJSON line. */
function payloadOf(event: string, sse: boolean): string {
  if (!sse) return event.trim();
  return event
    .split(/\r\n|\r|\n/)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
    .join('\n');
}

type Obj = Record<string, unknown>;

function classify(payload: string): { tokens: number; kind: GroundTruthKind; createdAt: number | null } {
  if (payload === '[DONE]') return { tokens: 0, kind: 'done', createdAt: null };
  let v: unknown;
  try {
    v = JSON.parse(payload);
  } catch {
    return { tokens: 0, kind: 'chunk', createdAt: null };
  }
  if (typeof v !== 'object' || v === null) return { tokens: 0, kind: 'chunk', createdAt: null };
  const o = v as Obj;
  const createdAt = typeof o.created_at === 'string' ? parseRfc3339(o.created_at) : null;
  if ('error' in o || o.type === 'error' || o.type === 'response.failed')
    return { tokens: 0, kind: 'error', createdAt };
  const choices = Array.isArray(o.choices) ? (o.choices as Obj[]) : null;
  if (choices && choices.length === 0) return { tokens: 0, kind: 'usage', createdAt };
  const c0 = choices?.[0];
  const delta = (c0?.delta ?? null) as Obj | null;
  const message = (o.message ?? null) as Obj | null;
  const text = [
    delta?.content,
    delta?.reasoning_content,
    delta?.reasoning,
    c0?.text,
    o.response,
    message?.content,
    message?.thinking,
    o.delta,
    o.content,
  ].find((x) => typeof x === 'string' && x !== '');
  let tokens = text === undefined ? 0 : 1;
  if (typeof o.token === 'object' && o.token !== null) tokens = 1; // TGI: one token per event
  if (Array.isArray(o.tokens)) tokens = o.tokens.length; // llama.cpp
  const final =
    o.done === true ||
    o.stop === true ||
    o.type === 'response.completed' ||
    (typeof o.generated_text === 'string' && 'token' in o);
  return { tokens, kind: final ? 'done' : 'chunk', createdAt };
}

function contentTypeFor(ext: string): string {
  switch (ext) {
    case '.sse':
      return 'text/event-stream; charset=utf-8';
    case '.ndjson':
      return 'application/x-ndjson';
    case '.json':
      return 'application/json';
    default:
      return 'text/plain; charset=utf-8';
  }
}

export function loadReplay(opts: Required<ReplayOptions>): ReplayBody {
  const text = readFileSync(opts.file, 'utf8');
  const ext = extname(opts.file).toLowerCase();
  const status = ext === '.json' ? Number(/http-(\d{3})/.exec(basename(opts.file))?.[1] ?? 200) : 200;
  const sse = ext === '.sse';
  const parts = ext === '.ndjson' ? splitNdjson(text) : sse ? splitSse(text) : [text];
  const infos = parts.map((p) => classify(payloadOf(p, sse)));
  const useOriginal = opts.timing === 'original' && infos.filter((i) => i.createdAt !== null).length >= 2;
  let lastTime: number | null = null;
  const events = parts.map((data, i) => {
    const info = infos[i] ?? { tokens: 0, kind: 'chunk' as const, createdAt: null };
    let delayMs = i === 0 ? 0 : opts.intervalMs;
    if (useOriginal && info.createdAt !== null) {
      delayMs = lastTime === null ? 0 : Math.max(0, info.createdAt - lastTime);
      lastTime = info.createdAt;
    }
    return { data, delayMs, tokens: info.tokens, kind: info.kind };
  });
  return { status, contentType: contentTypeFor(ext), events };
}

/** Write the replay body on `res`, on a drift-free schedule; returns a function that stops it. */
export function serveReplay(
  res: ServerResponse,
  body: ReplayBody,
  requestId: string,
  gt: GroundTruthLog,
  onDone: () => void,
): () => void {
  let timer: NodeJS.Timeout | null = null;
  let i = 0;
  let done = false;
  const stop = (): void => {
    if (done) return;
    done = true;
    if (timer) clearTimeout(timer);
    if (!res.writableEnded && !res.destroyed) res.end();
    onDone();
  };
  res.on('close', stop);
  res.writeHead(body.status, { 'content-type': body.contentType, 'x-request-id': requestId });
  res.flushHeaders();
  let target = performance.now();
  const step = (): void => {
    timer = null;
    const ev = body.events[i];
    if (done) return;
    if (!ev) return stop();
    const t = performance.now();
    res.write(ev.data);
    gt.record(requestId, i, t, ev.tokens, Buffer.byteLength(ev.data), ev.kind);
    i++;
    const next = body.events[i];
    if (!next) return stop();
    // Absolute targets pay back timer lateness (as the engine loop does) without bursting.
    target = Math.max(target, performance.now() - MAX_CATCH_UP_MS) + next.delayMs;
    timer = setTimeout(step, Math.max(0, target - performance.now()));
  };
  const first = body.events[0];
  target += first?.delayMs ?? 0;
  timer = setTimeout(step, Math.max(0, target - performance.now()));
  return stop;
}
