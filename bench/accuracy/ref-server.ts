/**
 * The accuracy bench's reference server: OpenAI chat-completions SSE in exact lockstep, and a log of
 * when it handed every chunk to the kernel. Deliberately nothing else (no batching model, no
 * prefill, no faults), so what it logs is sharp.
 *
 * - POST …/chat/completions: 200 text/event-stream, `x-request-id: ref-<n>`. At arrival: the
 *   headers with vLLM's role-only chunk (`delta: {role, content: ""}`). Then one content chunk per
 *   step: every active stream gets its chunk in the same step (a batched decode step), one step
 *   every `--step-ms`; a stream that arrives between steps joins the next one. `max_tokens`
 *   content chunks (the last one carries finish_reason "length", like vLLM), then a usage chunk
 *   when stream_options.include_usage, then `data: [DONE]`.
 * - Per chunk: res.write, socket.uncork(), then the stamp (CLOCK_MONOTONIC,
 *   `process.hrtime.bigint()`), then the next stream. The uncork matters: node:http corks the socket
 *   for every chunked write and uncorks on the next tick, so without it every chunk of a step would
 *   reach the kernel after the whole step, long after its stamp. Uncorked, the socket writes at once
 *   (libuv tries the write synchronously), so the stamp is when the bytes went to the kernel. A
 *   write the kernel did not take whole is counted (`queuedWrites`; its stamp would be early). A
 *   stamp just before the write too gives each chunk's uncertainty (`widths`: the server may be
 *   descheduled in between).
 * - GET /__truth: the log of every request since the last call (then forgotten), step statistics
 *   and the server's CPU over that span, as JSON (common.ts `Truth`).
 *
 * Run: node bin/run-ts.mjs bench/accuracy/ref-server.ts [--port 0] [--step-ms 20] [--tokens 128]
 * Prints `listening http://127.0.0.1:<port>` on stdout when ready.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { hrMs, numArg, parseArgs, pct, type Truth, type TruthRequest } from './common.ts';

const args = parseArgs(process.argv.slice(2));
const STEP_MS = numArg(args, 'step-ms', 20);
const DEFAULT_TOKENS = numArg(args, 'tokens', 128);
const PORT = numArg(args, 'port', 0);
const MODEL = 'tokenscope-ref';

interface Stream {
  log: TruthRequest;
  res: http.ServerResponse;
  sock: Socket;
  tokens: number;
  sent: number;
  usage: boolean;
  promptTokens: number;
  head: string;
  closed: boolean;
}

let nextId = 1;
let log: TruthRequest[] = [];
const active: Stream[] = [];
let timer: NodeJS.Timeout | null = null;
let nextAt = 0;
let late: number[] = [];
let spans: number[] = [];
let behind = 0;
let queued = 0;
let cpu0 = process.cpuUsage();
let since = hrMs();

const TAIL = '"},"logprobs":null,"finish_reason":null}]}\n\n';
const LAST_TAIL = '"},"logprobs":null,"finish_reason":"length"}]}\n\n';
const DONE = 'data: [DONE]\n\n';

function step(): void {
  timer = null;
  const start = hrMs();
  late.push(Math.max(0, start - nextAt));
  const list = active;
  let first = 0;
  let last = 0;
  let w = 0;
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    if (s.closed) continue;
    const k = s.sent;
    const isLast = k === s.tokens - 1;
    const data = s.head + ' t' + k + (isLast ? LAST_TAIL : TAIL);
    const before = hrMs();
    s.res.write(data);
    s.sock.uncork(); // node:http corked the socket for this chunk until the next tick: send it now
    const t = hrMs();
    s.log.chunks.push(t);
    s.log.widths.push(t - before);
    if (s.sock.writableLength > 0) queued++; // the kernel did not take it all: the stamp is early
    if (first === 0) first = t;
    last = t;
    s.sent++;
    if (isLast) {
      s.log.complete = true;
      const u = s.usage
        ? `data: {"id":"chatcmpl-${s.log.rid}","object":"chat.completion.chunk","created":0,"model":"${MODEL}","choices":[],"usage":{"prompt_tokens":${s.promptTokens},"total_tokens":${s.promptTokens + s.tokens},"completion_tokens":${s.tokens}}}\n\n`
        : '';
      s.res.end(u + DONE);
    } else list[w++] = s;
  }
  list.length = w;
  if (first !== 0) spans.push(last - first);
  if (w > 0) schedule();
}

function schedule(): void {
  if (timer) return;
  const now = hrMs();
  nextAt += STEP_MS;
  if (nextAt < now) {
    if (now - nextAt >= STEP_MS) behind++;
    nextAt = now; // fell behind: go at once, keep the step length from here
  }
  timer = setTimeout(step, Math.max(0, nextAt - now));
}

function startStream(res: http.ServerResponse, arriveMs: number, body: string): void {
  let tokens = DEFAULT_TOKENS;
  let usage = false;
  let promptTokens = 0;
  try {
    const b = JSON.parse(body) as {
      max_tokens?: number;
      max_completion_tokens?: number;
      stream_options?: { include_usage?: boolean };
      messages?: { content?: string }[];
    };
    const m = b.max_tokens ?? b.max_completion_tokens;
    if (typeof m === 'number' && m >= 1) tokens = Math.floor(m);
    usage = b.stream_options?.include_usage === true;
    for (const msg of b.messages ?? []) promptTokens += Math.ceil((msg.content?.length ?? 0) / 4);
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"bad JSON"}}');
    return;
  }
  const rid = `ref-${nextId++}`;
  const entry: TruthRequest = { rid, arriveMs, roleMs: 0, chunks: [], widths: [], complete: false };
  log.push(entry);
  const head = `data: {"id":"chatcmpl-${rid}","object":"chat.completion.chunk","created":${Math.floor(Date.now() / 1000)},"model":"${MODEL}","choices":[{"index":0,"delta":{"content":"`;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-request-id': rid,
  });
  res.write(
    `data: {"id":"chatcmpl-${rid}","object":"chat.completion.chunk","created":0,"model":"${MODEL}","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
  );
  const sock = res.socket;
  if (!sock) return; // the client is gone already
  sock.uncork();
  entry.roleMs = hrMs();
  const s: Stream = { log: entry, res, sock, tokens, sent: 0, usage, promptTokens, head, closed: false };
  res.on('close', () => {
    s.closed = true;
  });
  if (active.length === 0 && timer === null) nextAt = hrMs(); // the first step: one step from now
  active.push(s);
  schedule();
}

function truth(): Truth {
  const sLate = Float64Array.from(late).sort();
  const sSpan = Float64Array.from(spans).sort();
  const c = process.cpuUsage(cpu0);
  const now = hrMs();
  const out: Truth = {
    requests: log,
    steps: {
      steps: late.length,
      lateP50Ms: pct(sLate, 50),
      lateP99Ms: pct(sLate, 99),
      lateMaxMs: sLate.length ? sLate[sLate.length - 1]! : NaN,
      spanP50Ms: pct(sSpan, 50),
      spanP99Ms: pct(sSpan, 99),
      spanMaxMs: sSpan.length ? sSpan[sSpan.length - 1]! : NaN,
      behind,
      queuedWrites: queued,
    },
    cpuPct: Math.round((100 * (c.user + c.system)) / 1000 / Math.max(1, now - since)),
  };
  log = active.length ? log.filter((r) => !r.complete) : [];
  late = [];
  spans = [];
  behind = 0;
  queued = 0;
  cpu0 = process.cpuUsage();
  since = now;
  return out;
}

const server = http.createServer({ noDelay: true, keepAliveTimeout: 30_000 }, (req, res) => {
  const arriveMs = hrMs();
  if (req.method === 'GET' && req.url?.startsWith('/__truth')) {
    const body = JSON.stringify(truth());
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  if (req.method !== 'POST' || !req.url?.split('?')[0]!.endsWith('/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found"}}');
    return;
  }
  const parts: Buffer[] = [];
  req.on('data', (b: Buffer) => parts.push(b));
  req.on('end', () => startStream(res, arriveMs, Buffer.concat(parts).toString('utf8')));
});
server.on('connection', (sock: Socket) => sock.setNoDelay(true));
// 1024 clients connect at once: a backlog of Node's default 511 would drop SYNs (1 s retries).
server.listen(PORT, '127.0.0.1', 4096, () => {
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : PORT;
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
});
const stop = (): void => {
  server.close();
  for (const s of active) s.res.destroy();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
