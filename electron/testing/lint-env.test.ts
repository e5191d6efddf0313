/**
 * Configuration is read at the entry points only (electron/engine/engine-config.ts): lint refuses
 * a `process.env` read in the engine, runs, app, metrics and simulator code, and lets the entry
 * points read it and any code pass the environment on to a child process.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function envErrors(file: string, code: string): Promise<number> {
  const [r] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-syntax' && /process\.env/.test(m.message))
    .length;
}

describe('process.env at the entry points only', () => {
  const read = 'export const LIMIT = Number(process.env.TOKENSCOPE_X) || 1;\n';
  it('refuses a read in engine, runs, app, metrics and sim code', async () => {
    for (const dir of ['engine', 'engine/io', 'runs', 'runs/sweep', 'app', 'metrics', 'sim'])
      expect(await envErrors(`electron/${dir}/x.ts`, read), dir).toBe(1);
    expect(
      await envErrors(
        'electron/engine/x.ts',
        'export function f(): string | undefined {\n  return process.env.X;\n}\n',
      ),
    ).toBe(1);
  });

  it('lets entry points read it, tests set it, and children inherit it', async () => {
    expect(await envErrors('electron/cli/x.ts', read)).toBe(0);
    expect(await envErrors('electron/main.ts', read)).toBe(0);
    expect(await envErrors('electron/engine/x.test.ts', read)).toBe(0);
    expect(await envErrors('electron/runs/x.ts', 'export const env = { ...process.env, A: "1" };\n')).toBe(0);
  });
});
