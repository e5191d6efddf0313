/**
 * The docs hold together: README stays a short front page that links to docs/, and every relative
 * link in the repo's Markdown (README, BENCHMARKS, docs/, the folders' READMEs) names a file that
 * exists and, with a #fragment, a heading that is there. Moving a section between pages without
 * fixing its links fails here, not on a reader.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.ts';

/** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
function headingSlug(heading: string): string {
  return heading
    .replace(/^#+\s*/, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function headings(text: string): Set<string> {
  const out = new Set<string>();
  let code = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) code = !code;
    else if (!code && /^#{1,6} /.test(line)) out.add(headingSlug(line));
  }
  return out;
}

/** Relative links `[x](path#frag)` outside code blocks. */
function links(text: string): string[] {
  const out: string[] = [];
  let code = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) code = !code;
    if (code) continue;
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const t = m[1]!;
      if (!/^(https?:|mailto:)/.test(t)) out.push(t);
    }
  }
  return out;
}

function markdownFiles(): string[] {
  const files = ['README.md', 'BENCHMARKS.md'];
  files.push(
    ...readdirSync(path.join(REPO_ROOT, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : [])),
  );
  for (const dir of ['electron', 'shared', 'renderer', 'bench', 'deploy', 'test-corpus'])
    for (const f of readdirSync(path.join(REPO_ROOT, dir), { recursive: true }) as string[])
      if (f.endsWith('README.md') && !f.includes('node_modules')) files.push(`${dir}/${f}`);
  return files;
}

/** What is wrong with the links of one Markdown file, one line per broken link. */
function brokenLinks(file: string, read = (p: string) => readFileSync(p, 'utf8')): string[] {
  const abs = path.join(REPO_ROOT, file);
  const bad: string[] = [];
  for (const link of links(read(abs))) {
    const [target, frag] = link.split('#') as [string, string | undefined];
    const to = target === '' ? abs : path.resolve(path.dirname(abs), target);
    if (target !== '' && !existsSync(to)) bad.push(`${file}: ${link} — no such file`);
    else if (frag && to.endsWith('.md') && !headings(read(to)).has(frag))
      bad.push(`${file}: ${link} — no heading #${frag} there`);
  }
  return bad;
}

describe('the docs', () => {
  it('every relative link in the Markdown names a file and a heading that exist', () => {
    const files = markdownFiles();
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'docs/numbers.md', 'electron/runs/README.md']),
    );
    expect(files.flatMap((f) => brokenLinks(f))).toEqual([]);
  });

  it('README is a front page: the two commands, a tour, and a link to every page in docs/', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(160);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    for (const f of readdirSync(path.join(REPO_ROOT, 'docs')))
      if (f.endsWith('.md')) expect(readme, `README links docs/${f}`).toContain(`](docs/${f})`);
  });

  it('the check itself catches a missing file and a missing heading', () => {
    const pages: Record<string, string> = {
      [path.join(REPO_ROOT, 'x.md')]: '# X\n[a](docs/numbers.md#no-such-heading) [b](nope.md) [c](#x)\n',
    };
    const read = (p: string) => pages[p] ?? readFileSync(p, 'utf8');
    expect(brokenLinks('x.md', read)).toEqual([
      'x.md: docs/numbers.md#no-such-heading — no heading #no-such-heading there',
      'x.md: nope.md — no such file',
    ]);
    expect(headingSlug('### `tokenscope report RUN… [-o report.html]`')).toBe(
      'tokenscope-report-run--o-reporthtml',
    );
  });
});
