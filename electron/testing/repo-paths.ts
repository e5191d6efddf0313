/**
 * Repo paths named in prose — docs, READMEs and code comments — that must exist: a token that
 * starts with one of the repo's top folders and ends in a file extension or a `/`
 * (`shared/runs/summary/schema.ts`, `docs/load.md`, `electron/engine/io/`). Globs, placeholders and
 * brace lists (`shared/runs/sweep-*.ts`, `out/<x>/`, `{a,b}`) are patterns, not paths, and are
 * skipped; so are generated folders (out/, bench/results/) and the vendored corpus's own notes,
 * which name the files of the projects they were recorded from.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Generated, git-ignored folders: named in prose, absent in a clone. */
const GENERATED = ['out/', 'bench/results/'];

const TOP = [
  'electron',
  'shared',
  'renderer',
  'bench',
  'test-corpus',
  'docs',
  'e2e',
  'scripts',
  'deploy',
  'bin',
  '.ci',
];
const PATH_RE = new RegExp(
  String.raw`(?<![\w./@-])(?:` +
    TOP.map((t) => t.replace('.', '\\.')).join('|') +
    String.raw`)/[\w.@/-]*?(?:\.(?:ts|tsx|mjs|cjs|js|json|md|css|html|yaml|yml|sh|sse|ndjson|txt|jsonl|csv|proto|sha256)\b|/)(?![\w*{<-])`,
  'g',
);

/** Every path-like token of `text` (see the module comment for what counts). */
export function namedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PATH_RE)) {
    const p = m[0];
    const after = text[m.index + p.length] ?? '';
    if (after === '*' || after === '{' || after === '<') continue;
    out.push(p.endsWith('/') ? p : p.replace(/[.,;:]+$/, ''));
  }
  return out;
}

/** The tokens of `text` naming no file or folder under `root`. */
export function missingPaths(root: string, text: string): string[] {
  return namedPaths(text).filter(
    (p) => !GENERATED.some((g) => p.startsWith(g)) && !existsSync(path.join(root, p)),
  );
}

/** Files whose prose is checked: Markdown and the sources' comments (the whole file is read: a path in code is checked too). */
export function proseFiles(all: readonly string[]): string[] {
  return all.filter(
    (f) =>
      /\.(md|ts|tsx|mjs|js|cjs)$/.test(f) &&
      !f.startsWith('test-corpus/') &&
      !f.startsWith('node_modules/') &&
      !f.startsWith('out/') &&
      !f.includes('/proto/'),
  );
}

/** What is prose in a file: Markdown whole; in code, the comments (strings name made-up paths in tests). */
export function readText(root: string, f: string): string {
  const text = readFileSync(path.join(root, f), 'utf8');
  return f.endsWith('.md') ? text : commentsOf(text);
}

/** `// …` and `/* … *\/` comments of a source file (a `//` inside a string may be taken too: harmless here). */
function commentsOf(code: string): string {
  const out: string[] = [];
  for (const m of code.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)) out.push(m[0]);
  return out.join('\n');
}
