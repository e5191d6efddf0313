import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

const pkg = JSON.parse(readFileSync(resolve(__dirname, 'package.json'), 'utf8')) as { version: string };

// main and preload run in Node (Electron); the preload must be CommonJS because sandboxed
// preloads cannot be ES modules. The renderer is a plain web app (also served in web mode).
// Every library is bundled in (the package has no runtime dependencies): the packaged app and
// the CLI (vite.cli.config.ts) need no node_modules.
export default defineConfig({
  main: {
    define: { __TOKENSCOPE_VERSION__: JSON.stringify(pkg.version) },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // Worker threads are entries of their own, loaded from beside main.js (electron/workers/spawn.ts).
        input: {
          main: resolve(__dirname, 'electron/main.ts'),
          'sim-worker': resolve(__dirname, 'electron/sim/sim-worker.ts'),
          'io-worker': resolve(__dirname, 'electron/engine/io/io-worker.ts'),
          'import-worker': resolve(__dirname, 'electron/runs/import/import-worker.ts'),
        },
        // Code shared by main and the workers (spawn.ts among it) goes to chunks beside them, not
        // in chunks/: its import.meta.url-relative paths (`./sim-worker.js`) must resolve in out/main.
        output: { chunkFileNames: '[name]-[hash].js' },
        // hdr-histogram-js reaches zlib through eval('require("zlib")') for its compressed
        // encoding, which Tokenscope never uses; the warning says nothing actionable.
        onwarn(warning, warn) {
          if (warning.code === 'EVAL' && warning.id?.includes('hdr-histogram-js')) return;
          warn(warning);
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { preload: resolve(__dirname, 'electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    build: {
      minify: true,
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
