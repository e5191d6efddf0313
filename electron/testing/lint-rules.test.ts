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
