// The CLI as plain JavaScript: out/cli/tokenscope.js (the package's `bin`) with its worker threads
// beside it, every dependency bundled in, so the same folder runs from an npm install (production
// dependencies only) and from inside the desktop app (electron-builder.yml extraResources).
import { chmodSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8')) as {
  version: string;
};

export default defineConfig({
  define: {
    __TOKENSCOPE_VERSION__: JSON.stringify(pkg.version),
    __TOKENSCOPE_CLI_BUNDLE__: 'true',
  },
  ssr: { noExternal: true, target: 'node' },
  plugins: [
    {
      // The bin is run directly from a clone's node_modules/.bin link too, not only after npm's install.
      name: 'tokenscope-executable-bin',
      writeBundle(options) {
        chmodSync(resolve(options.dir ?? 'out/cli', 'tokenscope.js'), 0o755);
      },
    },
  ],
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'out/cli',
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    rollupOptions: {
      // Worker threads are entries of their own, loaded from beside the CLI (electron/workers/spawn.ts).
      input: {
        tokenscope: resolve(import.meta.dirname, 'electron/cli/bin.ts'),
        'sim-worker': resolve(import.meta.dirname, 'electron/sim/sim-worker.ts'),
        'io-worker': resolve(import.meta.dirname, 'electron/engine/io/io-worker.ts'),
        'import-worker': resolve(import.meta.dirname, 'electron/runs/import/import-worker.ts'),
      },
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'electron'],
      // hdr-histogram-js reaches zlib through eval('require("zlib")') for its compressed encoding,
      // which Tokenscope never uses; the warning says nothing actionable.
      onwarn(warning, warn) {
        if (warning.code === 'EVAL' && warning.id?.includes('hdr-histogram-js')) return;
        warn(warning);
      },
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-[hash].js',
        banner: (chunk) => (chunk.name === 'tokenscope' ? '#!/usr/bin/env node' : ''),
      },
    },
  },
});
