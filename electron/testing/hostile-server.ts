/**
 * A hostile server for the memory-bound tests (electron/engine/hostile-floods.test.ts): on
 * 127.0.0.1, it answers every dialect's path with a real start of a stream (bytes from
 * test-corpus/), then floods one shape of stream for as long as the client reads, honouring the
 * socket's back-pressure (its own memory stays flat; only the client's is measured):
 * - pings: `event: ping` blocks (Anthropic's keep-alive; for NDJSON a `{"type":"ping"}` line);
 * - comments: SSE comment lines (`: keep-alive`; for NDJSON, whitespace-only lines);
 * - blank-lines: empty lines, which end no event;
 * - event-only: `event:` lines that never get data (SSE), blank lines between them;
 * - meta-events: the dialect's own non-content event, from the corpus, again and again;
 * - after-done: the corpus stream whole, its end marker included, then content events forever.
 * The shape is the request's `x-flood` header.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DIALECT_PATHS, type DialectId } from '../../shared/dialects.ts';
import { getDialect } from '../engine/dialects/index.ts';
import { CORPUS_DIR } from './corpus.ts';

export const FLOOD_SHAPES = [
  'pings',
  'comments',
  'blank-lines',
  'event-only',
  'meta-events',
  'after-done',
] as const;
export type FloodShape = (typeof FLOOD_SHAPES)[number];

/** Each dialect's captured stream the floods start from (test-corpus/sse/SOURCES.md). */
/** The streaming dialects' (the non-streaming ones have no stream to flood). */
const CORPUS: Partial<Record<DialectId, string>> = {
  'openai-chat': 'vllm-chat.sse',
  'openai-completions': 'vllm-completions.sse',
  'openai-responses': 'openai-responses.sse',
  'anthropic-messages': 'anthropic-messages.sse',
  tgi: 'tgi-generate-stream.sse',
  llamacpp: 'llamacpp-completion.sse',
  'ollama-generate': 'ollama-api-generate.ndjson',
  'ollama-chat': 'ollama-api-chat.ndjson',
};

/** A dialect's corpus stream cut into its framed units, each classified by the dialect's decoder. */
interface Parts {
  ndjson: boolean;
  /** Every unit with its separator, in order. */
  units: { bytes: string; kind: string; terminal: boolean }[];
}

function partsOf(dialect: DialectId): Parts {
  const d = getDialect(dialect);
  const ndjson = d.framing === 'ndjson';
  const text = fs
    .readFileSync(path.join(CORPUS_DIR, 'sse', CORPUS[dialect] ?? 'missing'), 'utf8')
    .replace(/\r\n/g, '\n');
  const raw = ndjson ? text.split('\n').filter((l) => l.trim()) : text.split('\n\n').filter((b) => b.trim());
  const dec = d.createDecoder();
  const units = raw.map((u) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of ndjson ? [] : u.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
    const ev = dec.decode({ event, data: ndjson ? u : data.join('\n') });
    return { bytes: u + (ndjson ? '\n' : '\n\n'), kind: ev.kind, terminal: ev.terminal === true };
  });
  return { ndjson, units };
}

export interface Flood {
  /** What the stream starts with (its events are to be kept by the client). */
  head: string;
  /** What is then sent again and again. */
  unit: string;
  /** Content events in the head. */
  headContent: number;
}

export function floodOf(dialect: DialectId, shape: FloodShape): Flood {
  const { ndjson, units } = partsOf(dialect);
  const firstContent = units.findIndex((u) => u.kind === 'content');
  if (firstContent < 0) throw new Error(`${dialect}: no content event in its corpus stream`);
  // The stream up to its first content event: every shape but after-done starts so.
  const start = units.slice(0, firstContent + 1);
  const head = start.map((u) => u.bytes).join('');
  const flood = (unit: string): Flood => ({ head, unit, headContent: 1 });
  switch (shape) {
    case 'pings':
      return flood(ndjson ? '{"type":"ping"}\n' : 'event: ping\ndata: {"type": "ping"}\n\n');
    case 'comments':
      return flood(ndjson ? '   \n' : ': keep-alive\n');
    case 'blank-lines':
      return flood('\n');
    case 'event-only':
      return flood(ndjson ? ' \n' : 'event: ping\n\n');
    case 'meta-events': {
      const meta = units.find((u) => u.kind !== 'content' && !u.terminal && u.kind !== 'error');
      // A dialect whose corpus has no meta event floods with an empty content block instead.
      return flood(meta?.bytes ?? units[firstContent]!.bytes);
    }
    case 'after-done': {
      const end = units.findIndex((u) => u.terminal);
      if (end < 0) throw new Error(`${dialect}: no end marker in its corpus stream`);
      const all = units.slice(0, end + 1);
      return {
        head: all.map((u) => u.bytes).join(''),
        unit: units[firstContent]!.bytes,
        headContent: all.filter((u) => u.kind === 'content').length,
      };
    }
  }
}

const BY_PATH = new Map(Object.entries(DIALECT_PATHS).map(([id, p]) => [p, id as DialectId]));

export interface HostileServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the server; each response floods until the client goes. */
export async function startHostileServer(): Promise<HostileServer> {
  const srv = http.createServer((req, res) => {
    req.resume();
    const dialect = BY_PATH.get(new URL(req.url ?? '/', 'http://x').pathname);
    const shape = String(req.headers['x-flood'] ?? '') as FloodShape;
    if (!dialect || !(FLOOD_SHAPES as readonly string[]).includes(shape)) {
      res.writeHead(404).end();
      return;
    }
    const f = floodOf(dialect, shape);
    const ndjson = getDialect(dialect).framing === 'ndjson';
    res.writeHead(200, { 'content-type': ndjson ? 'application/x-ndjson' : 'text/event-stream' });
    res.write(f.head);
    const block = f.unit.repeat(Math.max(1, Math.floor((64 * 1024) / f.unit.length)));
    const more = (): void => {
      while (!res.destroyed) if (!res.write(block)) return void res.once('drain', more);
    };
    res.on('error', () => undefined);
    more();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: async () => {
      srv.closeAllConnections();
      await new Promise((r) => srv.close(r));
    },
  };
}
