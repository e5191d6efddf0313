/**
 * Where the tests find the wire-format corpus (SSE/NDJSON bodies, /metrics payloads, reference
 * docs): `test-corpus/` in the repository, or `$TOKENSCOPE_CORPUS` when set (another copy, e.g. a
 * newer capture). `corpus.test.ts` checks the repository's copy against its manifest.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const VENDORED_CORPUS = path.join(REPO_ROOT, 'test-corpus');

function corpusDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOKENSCOPE_CORPUS) return path.resolve(env.TOKENSCOPE_CORPUS);
  return VENDORED_CORPUS;
}

export const CORPUS_DIR = corpusDir();
