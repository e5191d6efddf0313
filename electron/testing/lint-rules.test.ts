/**
 * House lint rules besides the layers (eslint.config.js): a caught value's message goes through
 * errorMessage (shared/result.ts), and production code never imports test support (testing/).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function ruleErrors(file: string, code: string, rule: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return r!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('errors through errorMessage', () => {
  it('refuses (e as Error).message, accepts errorMessage(e)', async () => {
    const bad =
      'try { f(); } catch (e) { console.log((e as Error).message); }\ndeclare function f(): void;\n';
    expect(await ruleErrors('electron/app/x.ts', bad, 'no-restricted-syntax')).toEqual([
      expect.stringMatching(/errorMessage/),
    ]);
    const good =
      "import { errorMessage } from '../../shared/result.ts';\n" +
      'try { f(); } catch (e) { console.log(errorMessage(e)); }\ndeclare function f(): void;\n';
    expect(await ruleErrors('electron/app/x.ts', good, 'no-restricted-syntax')).toEqual([]);
  });
});

describe('test support stays out of production code', () => {
  it('refuses a production import of testing/, in electron/, shared/ and renderer/; tests and helpers may', async () => {
    const imp = (p: string): string => `import { x } from '${p}';\nvoid x;\n`;
    const rule = 'no-restricted-imports';
    expect(await ruleErrors('electron/runs/x.ts', imp('../testing/runs.ts'), rule)).toEqual([
      expect.stringMatching(/Test support/),
    ]);
    expect(await ruleErrors('shared/runs/x.ts', imp('../testing/records.ts'), rule)).toEqual([
      expect.stringMatching(/Test support/),
    ]);
    expect(await ruleErrors('renderer/runs/x.ts', imp('../testing/run-fixture.ts'), rule)).toEqual([
      expect.stringMatching(/Test support/),
    ]);
    expect(await ruleErrors('electron/runs/x.test.ts', imp('../testing/runs.ts'), rule)).toEqual([]);
    expect(await ruleErrors('electron/testing/y.ts', imp('./runs.ts'), rule)).toEqual([]);
    expect(await ruleErrors('shared/testing/y.ts', imp('./records.ts'), rule)).toEqual([]);
    // The other restrictions still hold in testing/ helpers.
    expect(await ruleErrors('shared/testing/y.ts', imp('node:fs'), rule)).toEqual([
      expect.stringMatching(/No Node modules/),
    ]);
  });
});
