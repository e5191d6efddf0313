import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, REPO_ROOT, VENDORED_CORPUS } from './corpus.ts';

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

  it('holds exactly the bytes of its manifest', () => {
    const m = manifest();
    expect(m.size).toBeGreaterThan(20);
    for (const dir of [VENDORED_CORPUS]) {
      expect(files(dir), dir).toEqual([...m.keys()].sort());
      for (const [f, h] of m) expect(sha(path.join(dir, f)), `${dir}/${f}`).toBe(h);
    }
  });
});

describe('the repository stands alone', () => {
  it('no file points at anything outside it (a corpus, a design or style document beside it)', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && /\.(ts|tsx|mjs|js|json|md|yml|yaml|html|css|sh)$|^\.ci\//.test(f))
      .filter((f) => f !== 'package-lock.json' && f !== 'electron/testing/corpus.test.ts');
    const outside = /shared\/corpus|\/work\/shared|\.\.\/shared\/(DESIGN|STYLE)\.md|\.\.\/\.library/;
    const hits: string[] = [];
    for (const f of tracked) {
      let text: string;
      try {
        text = readFileSync(path.join(REPO_ROOT, f), 'utf8');
      } catch {
        continue; // listed but not in this checkout
      }
      text.split('\n').forEach((line, i) => {
        if (outside.test(line)) hits.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
