/**
 * The layer rule (scripts/eslint-layers.js, configured in eslint.config.js) refuses an import that
 * goes up the layers, in production code and tests alike, and lets the ones going down pass.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return r!.messages.filter((m) => m.ruleId === 'layers/order').map((m) => m.message);
}

describe('the layer rule', () => {
  it('refuses core importing a feature, and a feature importing the shell or a feature above it', async () => {
    expect(
      await layerErrors('renderer/core/x.ts', "import { a } from '../runs/run-store.ts';\nexport { a };\n"),
    ).toEqual([
      expect.stringMatching(
        /^renderer\/core\/x\.ts \(renderer\/core\/\) imports renderer\/runs\/run-store\.ts \(renderer\/runs\/\), a layer above it\./,
      ),
    ]);
    expect(
      await layerErrors(
        'renderer/request/x.test.ts',
        "import { a } from '../shell/start.ts';\nexport { a };\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors('renderer/request/x.ts', "export { a } from '../metrics/panel-store.ts';\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'renderer/targets/x.ts',
        "const m = import('../request/controller.ts');\nexport { m };\n",
      ),
    ).toHaveLength(1);
  });

  it('the core side: engine below runs below app below the entry points; the simulator below all', async () => {
    expect(
      await layerErrors('electron/engine/x.ts', "import { a } from '../runs/runner.ts';\nexport { a };\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors('electron/runs/x.ts', "import { a } from '../app/runs-service.ts';\nexport { a };\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors('electron/app/x.ts', "import { a } from '../cli/run.ts';\nexport { a };\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors('electron/sim/x.ts', "import { a } from '../engine/client.ts';\nexport { a };\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors('electron/engine/x.test.ts', "import { a } from '../sim/index.ts';\nexport { a };\n"),
    ).toEqual([]);
    expect(
      await layerErrors('electron/cli/x.ts', "import { a } from '../app/runs-service.ts';\nexport { a };\n"),
    ).toEqual([]);
  });

  it('lets imports go down the layers and within one', async () => {
    expect(
      await layerErrors(
        'renderer/shell/x.ts',
        "import { a } from '../runs/run-store.ts';\nimport { b } from '../core/api.ts';\nimport { c } from './start.ts';\nimport { d } from '../../shared/api.ts';\nexport { a, b, c, d };\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'renderer/metrics/x.ts',
        "import { a } from '../request/request-store.ts';\nexport { a };\n",
      ),
    ).toEqual([]);
  });

  it("orders shared/runs' folders: the line shapes below the summary below the whole-file reader", async () => {
    // Up: a line shape reading the summary, the summary reading the reader, a feature reading compare/.
    expect(
      await layerErrors(
        'shared/runs/file/x.ts',
        "import { a } from '../summary/schema.ts';\nexport { a };\n",
      ),
    ).toEqual([
      expect.stringMatching(
        /^shared\/runs\/file\/x\.ts \(shared\/runs\/file\/\) imports shared\/runs\/summary\/schema\.ts \(shared\/runs\/summary\/\), a layer above it\./,
      ),
    ]);
    expect(
      await layerErrors(
        'shared/runs/summary/x.test.ts',
        "import { a } from '../run-file/parse.ts';\nexport { a };\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'shared/runs/summary/x.ts',
        "import { a } from '../compare/compare.ts';\nexport { a };\n",
      ),
    ).toHaveLength(1);
    // Down: the reader reads lines and the summary; the summary's distributions take the letters.
    expect(
      await layerErrors(
        'shared/runs/run-file/x.ts',
        "import { a } from '../file/line-schema.ts';\nimport { b } from '../summary/schema.ts';\nexport { a, b };\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors('shared/runs/summary/x.ts', "import { a } from '../letters.ts';\nexport { a };\n"),
    ).toEqual([]);
  });
});

describe('the size rules', () => {
  const sizeErrors = async (file: string, code: string) => {
    const [r] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
    return r!.messages.filter((m) => m.ruleId === 'max-lines' || m.ruleId === 'max-lines-per-function');
  };
  const fn = (name: string, lines: number) =>
    `export function ${name}(): number {\n  let n = 0;\n${'  n++;\n'.repeat(lines - 4)}  return n;\n}\n`;

  it('refuse a production function over 120 lines and a file over 400; tests are exempt', async () => {
    expect(await sizeErrors('electron/runs/x.ts', fn('ok', 120))).toEqual([]);
    expect((await sizeErrors('electron/runs/x.ts', fn('long', 121))).map((m) => m.ruleId)).toEqual([
      'max-lines-per-function',
    ]);
    expect((await sizeErrors('renderer/runs/X.tsx', fn('long', 121))).map((m) => m.ruleId)).toEqual([
      'max-lines-per-function',
    ]);
    const many = Array.from({ length: 5 }, (_, i) => fn(`f${i}`, 90)).join('');
    expect(many.split('\n').length).toBeGreaterThan(401);
    expect((await sizeErrors('shared/runs/x.ts', many)).map((m) => m.ruleId)).toEqual(['max-lines']);
    expect(await sizeErrors('shared/runs/x.test.ts', many + fn('long', 200))).toEqual([]);
  });

  it('count code only: comments and blank lines explaining a unit never push it over', async () => {
    const commented = (name: string, lines: number, extra: string) =>
      `export function ${name}(): number {\n  let n = 0;\n${('  n++;\n' + extra).repeat(lines - 4)}  return n;\n}\n`;
    // 120 lines of code with a comment or a blank line after each: well over 120 raw lines.
    expect(await sizeErrors('electron/runs/x.ts', commented('ok', 120, '  // why n grows\n'))).toEqual([]);
    expect(await sizeErrors('electron/runs/x.ts', commented('ok', 120, '\n'))).toEqual([]);
    expect(await sizeErrors('electron/runs/x.ts', '/**\n * doc\n */\n'.repeat(150) + fn('ok', 100))).toEqual(
      [],
    );
    // …while 121 lines of code still fail, however they are commented.
    expect(
      (await sizeErrors('electron/runs/x.ts', commented('long', 121, '  // c\n'))).map((m) => m.ruleId),
    ).toEqual(['max-lines-per-function']);
  });
});
