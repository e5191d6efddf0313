import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANONICAL_CORPUS, CORPUS_DIR, VENDORED_CORPUS } from './corpus.ts';

const OWN = new Set(['VENDORED.md', 'MANIFEST.sha256']);

function files(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const n of readdirSync(path.join(dir, rel)).sort()) {
    const r = path.join(rel, n);
    if (statSync(path.join(dir, r)).isDirectory()) out.push(...files(dir, r));
    else if (!(rel === '' && OWN.has(n))) out.push(r.split(path.sep).join('/'));
  }
  return out.sort();
}

/** `sha256sum` lines of test-corpus/MANIFEST.sha256: path → hash. */
function manifest(): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of readFileSync(path.join(VENDORED_CORPUS, 'MANIFEST.sha256'), 'utf8').split('\n')) {
    const hit = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (hit) m.set(hit[2]!, hit[1]!);
  }
  return m;
}

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('the corpus the tests replay', () => {
  it('is there, with SSE bodies and /metrics payloads', () => {
    expect(files(CORPUS_DIR).filter((f) => f.startsWith('sse/')).length).toBeGreaterThan(10);
    expect(files(CORPUS_DIR).filter((f) => f.startsWith('metrics/')).length).toBeGreaterThan(5);
  });

  it('the vendored snapshot holds exactly the bytes of its manifest, and so does ../shared/corpus where present', () => {
    const m = manifest();
    expect(m.size).toBeGreaterThan(20);
    const dirs = existsSync(CANONICAL_CORPUS) ? [VENDORED_CORPUS, CANONICAL_CORPUS] : [VENDORED_CORPUS];
    for (const dir of dirs) {
      expect(files(dir), dir).toEqual([...m.keys()].sort());
      for (const [f, h] of m) expect(sha(path.join(dir, f)), `${dir}/${f}`).toBe(h);
    }
  });
});
