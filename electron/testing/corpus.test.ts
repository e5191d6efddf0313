import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANONICAL_CORPUS, CORPUS_DIR, VENDORED_CORPUS } from './corpus.ts';

function files(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const n of readdirSync(path.join(dir, rel)).sort()) {
    const r = path.join(rel, n);
    if (statSync(path.join(dir, r)).isDirectory()) out.push(...files(dir, r));
    else out.push(r);
  }
  return out;
}

describe('the corpus the tests replay', () => {
  it('is there, with SSE bodies and /metrics payloads', () => {
    expect(files(CORPUS_DIR).filter((f) => f.startsWith('sse')).length).toBeGreaterThan(10);
    expect(files(CORPUS_DIR).filter((f) => f.startsWith('metrics')).length).toBeGreaterThan(5);
  });

  it.runIf(existsSync(CANONICAL_CORPUS))('the vendored snapshot equals ../shared/corpus byte for byte', () => {
    const canon = files(CANONICAL_CORPUS);
    expect(files(VENDORED_CORPUS).filter((f) => f !== 'VENDORED.md')).toEqual(canon);
    for (const f of canon) expect(readFileSync(path.join(VENDORED_CORPUS, f)).equals(readFileSync(path.join(CANONICAL_CORPUS, f))), f).toBe(true);
  });
});
