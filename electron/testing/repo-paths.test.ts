/**
 * Every repo path named in the docs, the READMEs and the code's comments exists (repo-paths.ts): a
 * file moved or renamed without fixing what names it fails here.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.ts';
import { missingPaths, namedPaths, proseFiles, readText } from './repo-paths.ts';

describe('repo paths named in prose', () => {
  it('finds paths and skips patterns (the checker itself)', () => {
    const text =
      'see shared/runs/summary/schema.ts, docs/load.md and electron/engine/io/; not shared/runs/sweep-*.ts, ' +
      'out/<x>/ or renderer/runs/{form,live}/, and a made-up electron/runs/no-such-file.ts.';
    expect(namedPaths(text)).toEqual([
      'shared/runs/summary/schema.ts',
      'docs/load.md',
      'electron/engine/io/',
      'electron/runs/no-such-file.ts',
    ]);
    expect(missingPaths(REPO_ROOT, text)).toEqual(['electron/runs/no-such-file.ts']);
  });

  it('every one exists', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n');
    const broken: string[] = [];
    for (const f of proseFiles(files.filter(Boolean)))
      for (const p of missingPaths(REPO_ROOT, readText(REPO_ROOT, f))) broken.push(`${f}: ${p}`);
    expect(broken).toEqual([]);
  });
});
