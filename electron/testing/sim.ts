/**
 * Helpers for the simulator's tests (real HTTP over 127.0.0.1). Deliberately naive parsers —
 * split on blank lines / newlines, JSON.parse each event — because the sim's output must be
 * simple enough for that; the engine's real SSE parser is tested on its own.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from './corpus.ts';
import type { SimServer } from '../sim/types.ts';

export const CORPUS_SSE = path.join(CORPUS_DIR, 'sse') + path.sep;

export function corpus(name: string): string {
  return readFileSync(CORPUS_SSE + name, 'utf8');
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

export async function post(
  sim: SimServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const r = await fetch(sim.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

export async function get(sim: SimServer, path: string): Promise<Reply> {
  const r = await fetch(sim.url + path);
  return { status: r.status, headers: r.headers, text: await r.text() };
}

/** Raw SSE events (text between blank lines), without empty trailing pieces. */
export function sseBlocks(text: string): string[] {
  return text.split('\n\n').filter((b) => b !== '');
}

/** The data payload of each SSE block, with the prefix it used checked by the caller. */
export function sseData(text: string, prefix = 'data: '): string[] {
  return sseBlocks(text).map((b) => {
    if (!b.startsWith(prefix)) throw new Error(`event does not start with '${prefix}': ${b.slice(0, 40)}`);
    return b.slice(prefix.length);
  });
}

type Obj = Record<string, unknown>;

export function sseJson(text: string, prefix = 'data: '): Obj[] {
  return sseData(text, prefix)
    .filter((d) => d !== '[DONE]')
    .map((d) => JSON.parse(d) as Obj);
}

export function ndjson(text: string): Obj[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Obj);
}

export function keys(v: unknown): string[] {
  return Object.keys(v as Obj);
}

/** choices[0] of a chunk. */
export function choice0(chunk: Obj): Obj {
  return (chunk.choices as Obj[])[0] as Obj;
}

/** One sample of /metrics by name and (a subset of) labels; NaN if absent. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line.startsWith(name)) continue;
    const m = /^([^{\s]+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const lbl = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => lbl.includes(`${k}="${v}"`))) return Number(m[3]);
  }
  return Number.NaN;
}

export async function scrape(sim: SimServer): Promise<string> {
  return (await get(sim, '/metrics')).text;
}

/** Wait until `cond` holds, polling; never a fixed sleep. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export const chatBody = (extra: Obj = {}): Obj => ({
  model: 'tokenscope-sim',
  messages: [{ role: 'user', content: 'Hello, who are you?' }],
  max_tokens: 8,
  ignore_eos: true,
  stream: true,
  ...extra,
});
