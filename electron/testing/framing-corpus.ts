/**
 * Test support: the streaming corpus (real and code-reconstructed response bodies, see
 * test-corpus/sse/SOURCES.md) and helpers to feed it to the framers in arbitrary reads.
 * The corpus is test-corpus/ in the repository (electron/testing/corpus.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from './corpus.ts';
import { SseParser, type SseEndInfo, type SseEvent } from '../engine/framing/sse.ts';
import { NdjsonFramer, type NdjsonEndInfo, type NdjsonLine } from '../engine/framing/ndjson.ts';

const SSE_DIR = path.join(CORPUS_DIR, 'sse');

function requireCorpus(): void {
  if (!existsSync(SSE_DIR)) {
    throw new Error(
      `Streaming corpus not found at ${SSE_DIR}: the tests replay it and cannot run without it.`,
    );
  }
}

/** Names of the corpus bodies with this extension ('sse' or 'ndjson'), sorted. */
export function corpusFiles(ext: 'sse' | 'ndjson'): string[] {
  requireCorpus();
  const files = readdirSync(SSE_DIR)
    .filter((f) => f.endsWith('.' + ext))
    .sort();
  if (files.length === 0) throw new Error(`No .${ext} files in ${SSE_DIR}`);
  return files;
}

export function readCorpus(name: string): Uint8Array {
  requireCorpus();
  const p = path.join(SSE_DIR, name);
  if (!existsSync(p)) throw new Error(`Corpus file missing: ${p}`);
  return new Uint8Array(readFileSync(p));
}

/** Splits `bytes` into reads at the given offsets (sorted, duplicates give zero-length reads). */
export function partition(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const sorted = [...cuts].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let prev = 0;
  for (const c of sorted) {
    const at = Math.max(prev, Math.min(bytes.length, c));
    parts.push(bytes.subarray(prev, at));
    prev = at;
  }
  parts.push(bytes.subarray(prev));
  return parts;
}

export interface SseResult {
  events: SseEvent[];
  retryMs: number | null;
  end: SseEndInfo;
}

export function parseSse(reads: readonly Uint8Array[]): SseResult {
  const p = new SseParser();
  const events: SseEvent[] = [];
  for (const r of reads) p.push(r, events);
  const end = p.end(events);
  return { events, retryMs: p.retryMs, end };
}

export interface NdjsonResult {
  lines: NdjsonLine[];
  end: NdjsonEndInfo;
}

export function parseNdjson(reads: readonly Uint8Array[]): NdjsonResult {
  const f = new NdjsonFramer();
  const lines: NdjsonLine[] = [];
  for (const r of reads) f.push(r, lines);
  const end = f.end(lines);
  return { lines, end };
}

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
