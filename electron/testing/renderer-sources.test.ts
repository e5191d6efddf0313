/**
 * Source checks on the renderer that a type or a unit test cannot make: every date goes through
 * renderer/core/format-date.ts (one format in the whole app), and every `.tsx` file exports the
 * component it is named after (a reader finds `RequestsCard` in RequestsCard.tsx, not in a file
 * named for a group of cards).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.ts';

const RENDERER = path.join(REPO_ROOT, 'renderer');

/** The renderer's production sources (tests left out). */
function rendererSources(): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const f = path.join(d, n);
      if (statSync(f).isDirectory()) walk(f);
      else if (/\.(ts|tsx)$/.test(n) && !/\.test\.tsx?$/.test(n)) files.push(f);
    }
  };
  walk(RENDERER);
  return files;
}

/**
 * What is wrong with a `.tsx` file named `file` holding `text`, or null: it must export the
 * component its name says (`export function Name`, `export const Name`); an entry point (it exports
 * nothing) is exempt.
 */
function componentNameProblem(file: string, text: string): string | null {
  const name = path.basename(file, '.tsx');
  if (!/^export /m.test(text)) return null;
  if (new RegExp(`^export (default )?(function|const|class) ${name}\\b`, 'm').test(text)) return null;
  const exported = [...text.matchAll(/^export (?:function|const|class) (\w+)/gm)].map((m) => m[1]);
  return `${file} exports ${exported.join(', ') || 'no component'}, not ${name}`;
}

describe('renderer sources', () => {
  it('no view formats dates on its own (every date goes through format-date.ts)', () => {
    const root = RENDERER;
    const files = rendererSources().filter((f) => path.basename(f) !== 'format-date.ts');
    const own =
      /toLocaleTimeString|toLocaleDateString|toLocaleString\(\s*(undefined|\)|\{)|new Intl\.DateTimeFormat/;
    const hits = files.filter((f) => own.test(readFileSync(f, 'utf8'))).map((f) => path.relative(root, f));
    expect(hits).toEqual([]);
  });

  it('every .tsx file exports the component it is named after', () => {
    const problems = rendererSources()
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => componentNameProblem(path.relative(RENDERER, f), readFileSync(f, 'utf8')))
      .filter((p) => p !== null);
    expect(problems).toEqual([]);
  });

  it('the name check tells a file of several components from one named after its component', () => {
    const group = 'export function RequestsCard() {}\nexport function KvCacheCard() {}\n';
    expect(componentNameProblem('metrics/ServerCards.tsx', group)).toBe(
      'metrics/ServerCards.tsx exports RequestsCard, KvCacheCard, not ServerCards',
    );
    expect(componentNameProblem('metrics/RequestsCard.tsx', group)).toBeNull();
    // A longer name that starts with the file's name is not it.
    expect(componentNameProblem('metrics/Requests.tsx', group)).not.toBeNull();
    // An entry point exports nothing.
    expect(componentNameProblem('main.tsx', "import './x.ts';\ncreateRoot(el).render(null);\n")).toBeNull();
  });
});
