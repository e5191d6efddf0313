/**
 * Accepting one generation request: parse, pick its fault, validate like the real server would
 * (unknown model 404, prompt + max tokens over the context 400), then hand it to the scheduler
 * with a StreamSession that writes the dialect's bytes.
 *
 * Determinism: the generated text and EOS position are seeded from (sim seed, prompt, request
 * `seed`) when the request carries a seed, else (sim seed, prompt, order of arrival). Request ids
 * come from the sim seed too, unless the client sends its own `x-request-id` (vLLM honours it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { DialectId } from '../../shared/dialects.ts';
import { closeAfterStream, DEFAULT_CLOSE_AFTER_STREAM_MS } from './close-after-stream.ts';
import { badJsonError, httpError, type HttpError } from './errors.ts';
import {
  DEFAULT_RUNAWAY_TOKENS,
  chooseFault,
  faultStatus,
  faultTokenIndex,
  formatFault,
  parseFault,
  slowFirstByteMs,
  type FaultSpec,
} from './faults.ts';
import type { GroundTruthLog } from './ground-truth.ts';
import { ollamaName } from './info.ts';
import { hash32, type Rng } from '../../shared/prng.ts';
import { parseRequest, BadSimRequest, type GenRequest } from './request.ts';
import { planOutput, type Scheduler } from './scheduler.ts';
import { blockKeys } from './prefix-cache.ts';
import { StreamSession } from './stream.ts';
import type { ResolvedSimOptions } from './types.ts';
import { sse } from './writer-types.ts';
import { createWriter } from './writers.ts';
import { planToolCall } from './tool-calls.ts';
import { errorMessage } from '../../shared/result.ts';
import { attachImages, type LiftedBody } from './body-images.ts';

export interface SimCore {
  opts: ResolvedSimOptions;
  scheduler: Scheduler;
  /** The extra model names' engines (sim/models.ts), by name; empty when it serves one model. */
  engines: Map<string, Scheduler>;
  groundTruth: GroundTruthLog;
  ids: Rng;
  /**
   * 8 hex digits random per simulator instance, the first part of every request id it makes up:
   * two simulators with the same seed (two processes, two threads) never answer the same id.
   */
  instanceId: string;
  faultRng: Rng;
  sessions: Set<{ shutdown(): void }>;
  /** Generation requests accepted so far (seeds requests without their own seed). */
  ordinal: number;
}

export function sendError(res: ServerResponse, e: HttpError): void {
  if (res.headersSent) return void res.end();
  // Overloaded and rate-limited answers say when to come back (OpenAI's 429s do).
  const retry = e.status === 429 || e.status === 503 ? { 'retry-after': '2' } : {};
  res.writeHead(e.status, { 'content-type': e.contentType, ...retry });
  res.end(e.body);
}

/**
 * vLLM-style request id: the client's `x-request-id` if sane, else 32 hex digits — the instance's
 * 8 (unique per simulator) then 24 seeded (the same sequence for the same seed, so the n-th request
 * of two runs still lines up by its tail).
 */
export function requestIdFor(req: IncomingMessage, ids: Rng, instanceId: string): string {
  const h = req.headers['x-request-id'];
  return typeof h === 'string' && /^[\w.:-]{1,128}$/.test(h) ? h : instanceId + ids.hex(24);
}

function modelMatches(dialect: DialectId, asked: string | null, served: string): boolean {
  if (asked === null || asked === '') return true;
  if (dialect === 'tgi' || dialect === 'llamacpp') return true; // these serve whatever is loaded
  if (dialect === 'ollama-generate' || dialect === 'ollama-chat')
    return ollamaName(asked) === ollamaName(served);
  return asked === served;
}

/** TGI's /generate_stream reports validation errors in-band with status 200 (test-corpus/FORMATS.md §2.3). */
function tgiInbandError(res: ServerResponse, message: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(
    sse(JSON.stringify({ error: `Input validation error: ${message}`, error_type: 'validation' }), false),
  );
}

/** The response's request id, which Anthropic error bodies echo. */
function idOf(res: ServerResponse): string | undefined {
  const h = res.getHeader('x-request-id');
  return typeof h === 'string' ? h : undefined;
}

function rejectInvalid(res: ServerResponse, dialect: DialectId, message: string, param: string | null): void {
  if (dialect === 'tgi') return tgiInbandError(res, message);
  sendError(res, httpError(dialect, 400, { message, param, requestId: idOf(res) }));
}

export function acceptGeneration(
  core: SimCore,
  dialect: DialectId,
  forceNonStream: boolean,
  req: IncomingMessage,
  res: ServerResponse,
  raw: LiftedBody,
): void {
  const o = core.opts;
  const arrivalMs = performance.now();
  let body: unknown;
  try {
    body = raw.text.trim() === '' ? {} : JSON.parse(raw.text);
  } catch (err) {
    return sendError(res, badJsonError(dialect, errorMessage(err)));
  }
  attachImages(body, raw.images);
  let perRequest: FaultSpec | null = null;
  try {
    const header = req.headers['x-sim-fault'];
    const inBody =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>).sim_fault : undefined;
    const text =
      typeof header === 'string' && header !== '' ? header : typeof inBody === 'string' ? inBody : null;
    perRequest = text === null ? null : parseFault(text);
  } catch (err) {
    return sendError(
      res,
      httpError(dialect, 400, {
        message: errorMessage(err),
        param: 'x-sim-fault',
        requestId: idOf(res),
      }),
    );
  }
  const fault = chooseFault(perRequest, o.fault, o.faultRate, core.faultRng);
  if (fault) res.setHeader('x-sim-fault', formatFault(fault));
  if (fault?.kind === 'close-after-stream')
    closeAfterStream(req, res, fault.param ?? DEFAULT_CLOSE_AFTER_STREAM_MS);
  let r: GenRequest;
  try {
    r = parseRequest(dialect, body);
  } catch (err) {
    if (err instanceof BadSimRequest) return rejectInvalid(res, dialect, err.message, err.param);
    throw err;
  }
  if (forceNonStream || fault?.kind === 'no-stream') r.stream = false;
  if (fault?.kind === 'redirect') {
    res.writeHead(307, {
      location: `http://${req.headers.host ?? 'localhost'}/v2${req.url ?? '/'}`,
      'content-length': 0,
    });
    return void res.end();
  }
  if (fault?.kind === 'json-error-200') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(
      JSON.stringify({
        error: { message: 'The engine is overloaded, try again later.', type: 'server_error', code: 503 },
      }),
    );
  }
  if (fault?.kind === 'gzip') {
    // A compressing proxy in front of the server: the whole stream, gzip'd.
    const text =
      'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n';
    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
    return void res.end(gzipSync(text));
  }
  const status = faultStatus(fault);
  const requestId = idOf(res);
  if (status !== null)
    return sendError(res, httpError(dialect, status, { model: r.model ?? o.model, requestId }));
  const engine = engineFor(core, dialect, r.model);
  if (!engine) return sendError(res, httpError(dialect, 404, { model: r.model ?? '', requestId }));
  const maxTokens = r.maxTokens ?? o.defaultMaxTokens;
  if (!engine.scheduler.fits(r.promptTokens, maxTokens)) {
    const message =
      `This model's maximum context length is ${o.kvCacheTokens} tokens. However, you requested ${r.promptTokens + maxTokens} tokens ` +
      `(${r.promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`;
    return rejectInvalid(res, dialect, message, 'max_tokens');
  }
  start(core, engine, dialect, res, r, maxTokens, fault, arrivalMs, traceparentOf(req));
}

/** The engine serving the model asked for, and the name it answers with; null: not served (404). */
function engineFor(
  core: SimCore,
  dialect: DialectId,
  asked: string | null,
): { scheduler: Scheduler; name: string | null } | null {
  const extra = asked !== null ? core.engines.get(asked) : undefined;
  if (extra && asked !== null) return { scheduler: extra, name: asked };
  return modelMatches(dialect, asked, core.opts.model) ? { scheduler: core.scheduler, name: null } : null;
}

function start(
  core: SimCore,
  engine: { scheduler: Scheduler; name: string | null },
  dialect: DialectId,
  res: ServerResponse,
  r: GenRequest,
  maxTokens: number,
  fault: FaultSpec | null,
  arrivalMs: number,
  trace: { traceparent?: string },
): void {
  const o = core.opts;
  const requestId = res.getHeader('x-request-id') as string;
  const ordinal = core.ordinal++;
  const textSeed = hash32(
    `${r.promptText}\u0000${r.seed !== null ? `seed=${r.seed}` : `#${ordinal}`}`,
    o.seed,
  );
  // A server that ignores max_tokens (fault ignore-max-tokens) generates on regardless.
  const runaway = fault?.kind === 'ignore-max-tokens';
  // As far as the KV cache holds (a sequence that does not fit would never be admitted).
  const genTokens = runaway
    ? Math.max(maxTokens, Math.min(fault.param ?? DEFAULT_RUNAWAY_TOKENS, o.kvCacheTokens - r.promptTokens))
    : maxTokens;
  const reasoningTokens = r.reasoningTokens ?? o.reasoningTokens;
  const plan = planOutput(textSeed, genTokens, r.minTokens, r.ignoreEos || runaway, reasoningTokens);
  const model =
    engine.name ??
    (dialect === 'ollama-generate' || dialect === 'ollama-chat' ? (r.model ?? ollamaName(o.model)) : o.model);
  const scheduler = engine.scheduler;
  let session: StreamSession | null = null;
  const writer = createWriter(dialect, {
    requestId,
    model,
    created: Math.floor((performance.timeOrigin + arrivalMs) / 1000),
    req: r,
    maxTokens,
    seed: r.seed ?? textSeed,
    slot: ordinal % o.maxNumSeqs,
    reasoningTokens,
    times: () => ({
      arrivalMs,
      admittedMs: session?.seq?.admittedMs ?? 0,
      firstTokenMs: session?.seq?.firstTokenMs ?? 0,
    }),
    cachedTokens: () => session?.seq?.cachedTokens ?? 0,
    promptTokensDetails: o.promptTokensDetails,
    toolCall: planToolCall(r.tools, r.toolChoice, {
      seed: textSeed,
      requestId,
      share: o.toolCallShare,
      totalTokens: plan.tokens,
      badJson: fault?.kind === 'bad-tool-json',
    }),
  });
  const s = new StreamSession(res, dialect, writer, requestId, fault, r.stream, {
    scheduler,
    groundTruth: core.groundTruth,
    onDone: (x) => core.sessions.delete(x),
    arrivalMs,
  });
  session = s;
  core.sessions.add(s);
  const holdMs = slowFirstByteMs(fault);
  s.begin(holdMs > 0);
  const submit = (): void => {
    if (res.destroyed || res.writableEnded || !core.sessions.has(s)) return;
    s.seq = scheduler.submit(
      {
        requestId,
        promptTokens: r.promptTokens,
        maxTokens: genTokens,
        minTokens: r.minTokens,
        ignoreEos: r.ignoreEos || runaway,
        textSeed,
        reasoningTokens,
        arrivalMs,
        faultAt: faultTokenIndex(fault, plan.tokens),
        ...trace,
        ...(r.imageTokens > 0 ? { imageTokens: r.imageTokens } : {}),
        prefixKeys: scheduler.prefixCache
          ? blockKeys(r.messages ? { messages: r.messages } : { text: r.promptText })
          : undefined,
      },
      s,
    );
  };
  if (holdMs > 0) {
    // The request is held before the engine sees it (a cold start, a slow proxy): server-side
    // TTFT and queue time include the hold, since they count from arrival.
    const t = setTimeout(submit, holdMs);
    res.on('close', () => clearTimeout(t));
  } else submit();
}

/** The caller's W3C traceparent, which the request's span continues (vLLM: extract_trace_context). */
function traceparentOf(req: IncomingMessage): { traceparent?: string } {
  const h = req.headers.traceparent;
  return typeof h === 'string' && h.length <= 128 ? { traceparent: h } : {};
}
