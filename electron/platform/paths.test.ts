import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsDir, tokenscopeHome } from './paths.ts';

describe('tokenscope home and runs folder', () => {
  it('TOKENSCOPE_HOME wins everywhere', () => {
    for (const p of ['linux', 'darwin', 'win32'] as const)
      expect(tokenscopeHome({ TOKENSCOPE_HOME: '/x/y' }, p)).toBe('/x/y');
    expect(runsDir({ TOKENSCOPE_HOME: '/x/y' })).toBe(path.join('/x/y', 'runs'));
  });
  it("follows each platform's convention", () => {
    expect(tokenscopeHome({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe(path.join('/cfg', 'tokenscope'));
    expect(tokenscopeHome({ APPDATA: 'C:/Users/u/AppData/Roaming' }, 'win32')).toBe(
      path.join('C:/Users/u/AppData/Roaming', 'tokenscope'),
    );
    expect(tokenscopeHome({}, 'darwin')).toMatch(/Library[/\\]Application Support[/\\]tokenscope$/);
    expect(tokenscopeHome({}, 'linux')).toMatch(/\.config[/\\]tokenscope$/);
  });
});
