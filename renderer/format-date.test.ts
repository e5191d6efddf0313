import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fmtClock, fmtDateTime } from './format-date.ts';

describe('one way to write a moment', () => {
  it('a run: the locale’s date with a 24-hour time; a request: HH:MM:SS', () => {
    const t = new Date(2026, 10, 25, 15, 49, 46).getTime(); // local time
    const s = fmtDateTime(t);
    expect(s).toContain('2026');
    expect(s).toMatch(/15:49/);
    expect(s).not.toMatch(/PM|AM/);
    expect(fmtClock(t)).toBe('15:49:46');
    expect(fmtDateTime(NaN)).toBe('');
    expect(fmtDateTime(null)).toBe('');
  });

  it('no view formats dates on its own (every date goes through format-date.ts)', () => {
    const root = path.dirname(new URL(import.meta.url).pathname);
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
