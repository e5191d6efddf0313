/**
 * Source checks on the renderer that a type or a unit test cannot make: every date goes through
 * renderer/core/format-date.ts (one format in the whole app).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.ts';

describe('renderer sources', () => {
  it('no view formats dates on its own (every date goes through format-date.ts)', () => {
    const root = path.join(REPO_ROOT, 'renderer');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const f = path.join(d, n);
        if (statSync(f).isDirectory()) walk(f);
        else if (/\.(ts|tsx)$/.test(n) && !/\.test\.tsx?$/.test(n) && n !== 'format-date.ts') files.push(f);
      }
    };
    walk(root);
    const own =
      /toLocaleTimeString|toLocaleDateString|toLocaleString\(\s*(undefined|\)|\{)|new Intl\.DateTimeFormat/;
    const hits = files.filter((f) => own.test(readFileSync(f, 'utf8'))).map((f) => path.relative(root, f));
    expect(hits).toEqual([]);
  });
});
