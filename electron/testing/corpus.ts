/**
 * Where the tests find the wire-format corpus (SSE/NDJSON bodies, /metrics payloads, reference
 * docs): `$TOKENSCOPE_CORPUS` if set; else `../shared/corpus` beside the repository (the
 * canonical copy, where the team keeps it); else `test-corpus/` in the repository, a byte-for-byte
 * snapshot of it so a clean clone anywhere (CI) tests against the same bytes.
 * `corpus.test.ts` fails when the snapshot and the canonical copy differ.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CANONICAL_CORPUS = path.resolve(REPO_ROOT, '../shared/corpus');
export const VENDORED_CORPUS = path.join(REPO_ROOT, 'test-corpus');

export function corpusDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOKENSCOPE_CORPUS) return path.resolve(env.TOKENSCOPE_CORPUS);
  if (existsSync(path.join(CANONICAL_CORPUS, 'sse'))) return CANONICAL_CORPUS;
  return VENDORED_CORPUS;
}

export const CORPUS_DIR = corpusDir();
