/**
 * The accuracy bench's baseline: the plainest client that can time a stream. N concurrent
 * requests on a keep-alive agent; per socket read it stamps CLOCK_MONOTONIC first, then counts
 * the SSE events the read completes (`\n\n`), and nothing else — no JSON, no decoding, no
 * bookkeeping until every stream has ended. Whatever error it shows is the floor a client on this
 * machine cannot go under (loopback, kernel, the event loop draining N sockets).
 *
 * It knows the reference server's stream: event 0 is the role chunk, events 1…T the content
 * chunks, then usage and [DONE].
 *
 * Run (the bench does): node bin/run-ts.mjs bench/accuracy/baseline-client.ts --url URL
 *   --streams N --tokens T --timeout-ms MS --out FILE
 */
import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import { hrMs, numArg, parseArgs, type ClientRequest, type ClientResult } from './common.ts';

const args = parseArgs(process.argv.slice(2));
const url = new URL('/v1/chat/completions', args.get('url') ?? 'http://127.0.0.1:8000');
const streams = numArg(args, 'streams', 16);
const tokens = numArg(args, 'tokens', 128);
const timeoutMs = numArg(args, 'timeout-ms', 120_000);
const out = args.get('out');

interface Conn {
  rid: string | null;
  /** Per read: its stamp and how many events it completed. */
  readT: number[];
  readN: number[];
  /** The previous read ended in '\n' (a `\n\n` split across two reads). */
  nl: boolean;
  /** The last two reads (references, no copy): the end checks for [DONE]. */
  prev: Buffer | null;
  last: Buffer | null;
  error: string | null;
  done: boolean;
}

function fire(i: number, agent: http.Agent, outLen = tokens): Promise<Conn> {
  const c: Conn = {
    rid: null,
    readT: [],
    readN: [],
    nl: false,
    prev: null,
    last: null,
    error: null,
    done: false,
  };
  const body = JSON.stringify({
    model: 'tokenscope-ref',
    messages: [{ role: 'user', content: `stream ${i}` }],
    stream: true,
    max_tokens: outLen,
    ignore_eos: true,
    stream_options: { include_usage: true },
  });
  return new Promise((resolve) => {
    const end = (err: string | null): void => {
      if (c.done) return;
      c.done = true;
      c.error ??= err;
      resolve(c);
    };
    const req = http.request(url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('socket', (s: Socket) => s.setNoDelay(true));
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (e) => end(e.message));
    req.on('response', (res) => {
      const rid = res.headers['x-request-id'];
      c.rid = typeof rid === 'string' ? rid : null;
      if (res.statusCode !== 200) c.error = `HTTP ${res.statusCode}`;
      res.on('data', (b: Buffer) => {
        const t = hrMs(); // stamp first
        let n = c.nl && b[0] === 10 ? 1 : 0;
        let at = b.indexOf('\n\n');
        while (at !== -1) {
          n++;
          at = b.indexOf('\n\n', at + 2);
        }
        c.nl = b[b.length - 1] === 10;
        c.readT.push(t);
        c.readN.push(n);
        c.prev = c.last;
        c.last = b;
      });
      res.on('end', () => {
        const tail = c.last ? Buffer.concat(c.prev ? [c.prev, c.last] : [c.last]) : Buffer.alloc(0);
        end(tail.includes('[DONE]') ? null : 'stream ended without [DONE]');
      });
      res.on('error', (e) => end(e.message));
    });
    req.end(body);
  });
}

/** Reads → per content chunk: the stamp of the read that completed it, same read as the event before. */
function toRequest(c: Conn): ClientRequest {
  const content: number[] = [];
  const sameRead: number[] = [];
  let ev = 0;
  for (let r = 0; r < c.readT.length; r++) {
    for (let j = 0; j < c.readN[r]!; j++, ev++) {
      if (ev >= 1 && ev <= tokens) {
        content.push(c.readT[r]!);
        sameRead.push(j > 0 ? 1 : 0);
      }
    }
  }
  const ok = c.error === null && content.length === tokens;
  return {
    rid: c.rid,
    ok,
    ...(ok ? {} : { error: c.error ?? `${content.length} content events, expected ${tokens}` }),
    content,
    sameRead,
  };
}

// Warm-up (short streams, as the engine client does): compiles the code paths before the measured run.
const warmupStreams = numArg(args, 'warmup-streams', Math.min(streams, 16));
const warmupTokens = numArg(args, 'warmup-tokens', 16);
const notes: string[] = [];
if (warmupStreams > 0) {
  // Its own agent, like the engine's separate warm-up run: the measured run opens fresh connections.
  const wa = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const wc = await Promise.all(Array.from({ length: warmupStreams }, (_, i) => fire(i, wa, warmupTokens)));
  wa.destroy();
  const bad = wc.filter((c) => c.error !== null).length;
  if (bad) notes.push(`warm-up: ${bad} of ${warmupStreams} failed`);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const cpu0 = process.cpuUsage();
const t0 = hrMs();
const conns = await Promise.all(Array.from({ length: streams }, (_, i) => fire(i, agent)));
const wallMs = hrMs() - t0;
const cpu = process.cpuUsage(cpu0);
agent.destroy();
const cpuMs = (cpu.user + cpu.system) / 1000;
const result: ClientResult = {
  client: 'baseline',
  streams,
  tokens,
  wallMs,
  cpuMs,
  cpuPct: (100 * cpuMs) / wallMs,
  requests: conns.map(toRequest),
  notes,
  extra: { reads: conns.reduce((a, c) => a + c.readT.length, 0) },
};
if (out) fs.writeFileSync(out, JSON.stringify(result));
else process.stdout.write(JSON.stringify(result) + '\n');
process.exit(0);
