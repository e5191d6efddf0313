/**
 * What this build is, in every form Tokenscope runs: from source (tsx, vitest), the desktop app's
 * bundle (out/main) and the CLI bundle (out/cli, also shipped inside the desktop app). Bundles get
 * their version at build time (`define` in the vite configs), so nothing reads package.json at run
 * time from a path that only exists in a clone.
 */
import { readFileSync } from 'node:fs';

declare const __TOKENSCOPE_VERSION__: string | undefined;
declare const __TOKENSCOPE_CLI_BUNDLE__: boolean | undefined;

/** True in the built CLI (out/cli/tokenscope.js): its files sit beside it, not in a source tree. */
export const CLI_BUNDLE = typeof __TOKENSCOPE_CLI_BUNDLE__ === 'boolean' && __TOKENSCOPE_CLI_BUNDLE__;

function versionFromSource(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** package.json's version, baked in by the bundles, read from the tree when run from source. */
export const TOKENSCOPE_VERSION: string =
  typeof __TOKENSCOPE_VERSION__ === 'string' ? __TOKENSCOPE_VERSION__ : versionFromSource();
