// Lint: typescript-eslint's recommended rules plus the house's process boundaries
// (docs/ARCHITECTURE.md "Rules of the house"): only electron/main.ts, preload.ts and ipc.ts may import
// 'electron'; shared/ and renderer/ import no node:* modules; shared/ imports no DOM-only code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './scripts/eslint-layers.js';

/** The core's layers, lowest first (docs/ARCHITECTURE.md "Layers"). Tests included. */
// Test support (electron/testing/) sits at the layer of what it builds on, file by file.
const ELECTRON_LAYERS = [
  ['shared/'],
  [
    'electron/platform/',
    'electron/workers/',
    'electron/testing/corpus.ts',
    'electron/testing/corpus-server.ts',
    'electron/testing/cli.ts',
    'electron/testing/prometheus.ts',
    'electron/testing/until.ts',
  ],
  // The simulator stands alone (it uses no client code): every layer above may test against it.
  ['electron/sim/', 'electron/testing/sim.ts'],
  [
    'electron/engine/',
    // The OTLP trace receiver (decoding, HTTP): a client-side input beside the engine.
    'electron/otlp/',
    'electron/testing/framing-corpus.ts',
    'electron/testing/dialect-replay.ts',
    'electron/testing/hostile-server.ts',
    'electron/testing/flood-child.ts',
  ],
  ['electron/metrics/'],
  ['electron/runs/', 'electron/testing/runs.ts'],
  ['electron/app/', 'electron/testing/core.ts'],
  ['electron/testing/'],
  ['electron/ipc.ts', 'electron/main.ts', 'electron/preload.ts', 'electron/serve', 'electron/cli'],
];

/** The renderer's layers, lowest first (docs/ARCHITECTURE.md "Layers"). Tests included. */
const RENDERER_LAYERS = [
  ['shared/'],
  ['renderer/core/', 'renderer/testing/'],
  ['renderer/targets/'],
  ['renderer/request/'],
  ['renderer/metrics/', 'renderer/runs/'],
  // Load sweeps: the Runs tab's Sweep mode, over the run form (renderer/runs/).
  ['renderer/sweeps/'],
  // The app's shell and the report page (renderer/report/): two entry points over the same features.
  ['renderer/shell/', 'renderer/main.tsx', 'renderer/report/'],
];

/**
 * shared/runs' feature folders, lowest first (docs/ARCHITECTURE.md "Runs in shared/"): the line
 * shapes below the summary, the summary below the whole-file reader, and every feature above them.
 * One folder per layer, so no two of them can import each other. Tests included.
 */
const SHARED_RUNS_LAYERS = [
  ['shared/runs/letters.ts'],
  ['shared/runs/workload/'],
  ['shared/runs/shard/'],
  ['shared/runs/file/'],
  ['shared/runs/summary/'],
  ['shared/runs/run-file/'],
  ['shared/runs/live/'],
  ['shared/runs/compare/'],
  ['shared/runs/import/'],
  ['shared/runs/sweep/'],
  ['shared/runs/merge/'],
  // Tests that follow one number through every surface (summary, text, JSON, comparison, exports).
  ['shared/runs/surfaces/'],
];

const nodeBuiltins = [
  'fs',
  'path',
  'http',
  'https',
  'net',
  'tls',
  'os',
  'child_process',
  'crypto',
  'stream',
  'url',
  'worker_threads',
  'zlib',
];

/** A caught value need not be an Error: its message is errorMessage(e) (shared/result.ts). */
const ERROR_MESSAGE_SYNTAX = {
  selector:
    "MemberExpression[property.name='message'] > TSAsExpression[typeAnnotation.typeName.name='Error']",
  message: 'Use errorMessage(e) (shared/result.ts): a caught value need not be an Error.',
};

/** Test support (any testing/ folder) is for tests: production code never imports it. */
const NO_TESTING_IMPORT = {
  group: ['**/testing/**', './testing/*'],
  message: 'Test support (testing/) is for tests and other test support, not production code.',
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
        window: 'readonly',
        document: 'readonly',
        requestAnimationFrame: 'readonly',
        cancelAnimationFrame: 'readonly',
        WebSocket: 'readonly',
        navigator: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
      // A timer declared before the closures that clear it and assigned later is not a bug.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A caught value need not be an Error: its message is errorMessage(e) (shared/result.ts).
      'no-restricted-syntax': ['error', ERROR_MESSAGE_SYNTAX],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { layers },
    rules: { 'layers/order': ['error', { layers: RENDERER_LAYERS }] },
  },
  {
    files: ['electron/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/order': ['error', { layers: ELECTRON_LAYERS }] },
  },
  {
    files: ['shared/runs/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/order': ['error', { layers: SHARED_RUNS_LAYERS }] },
  },
  {
    // Small units (docs/ARCHITECTURE.md "Conventions"): a file a reader takes in at once, a
    // function that fits on a screen or two. Raw lines, comments included. Tests are exempt:
    // a describe block is a list of cases, not a unit.
    files: [
      'electron/**/*.ts',
      'shared/**/*.ts',
      'renderer/**/*.{ts,tsx}',
      'bench/**/*.ts',
      'scripts/**/*.{js,mjs}',
    ],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // CommonJS helper scripts (run by node directly).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Production code (not tests, not the testing/ folders' own helpers) imports no test support.
  ...[false, true].map((testing) => ({
    files: testing ? ['electron/testing/**/*.ts'] : ['electron/**/*.ts'],
    ignores: [
      'electron/main.ts',
      'electron/preload.ts',
      'electron/ipc.ts',
      'electron/**/*.test.ts',
      ...(testing ? [] : ['electron/testing/**']),
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message:
                'Only electron/main.ts, preload.ts and ipc.ts import electron: the core runs in the CLI and tests too.',
            },
          ],
          patterns: testing ? [] : [NO_TESTING_IMPORT],
        },
      ],
    },
  })),
  ...[false, true].map((testing) => ({
    files: testing
      ? ['shared/testing/**/*.ts', 'renderer/testing/**/*.ts', 'renderer/testing/**/*.tsx']
      : ['shared/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: [
      '**/*.test.ts',
      '**/*.test.tsx',
      ...(testing ? [] : ['shared/testing/**', 'renderer/testing/**']),
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'shared/ and renderer/ never import electron.' },
            ...nodeBuiltins.map((name) => ({ name, message: 'No Node modules in shared/ or renderer/.' })),
          ],
          patterns: [
            { group: ['node:*'], message: 'No Node modules in shared/ or renderer/.' },
            { group: ['**/electron/**'], message: 'shared/ and renderer/ do not reach into electron/.' },
            ...(testing ? [] : [NO_TESTING_IMPORT]),
          ],
        },
      ],
    },
  })),
  {
    // Configuration is built at the entry points (electron/engine/engine-config.ts): the engine, the
    // runs, the app, metrics and the simulator read no environment variable, at load or later.
    // Passing the environment on to a child process (`{ ...process.env, … }`) is not a read.
    files: [
      'electron/engine/**/*.ts',
      'electron/runs/**/*.ts',
      'electron/app/**/*.ts',
      'electron/metrics/**/*.ts',
      'electron/sim/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      // A block's no-restricted-syntax replaces the global one's list: the errorMessage rule again.
      'no-restricted-syntax': [
        'error',
        ERROR_MESSAGE_SYNTAX,
        {
          selector: ":not(SpreadElement) > MemberExpression[object.name='process'][property.name='env']",
          message:
            'No process.env here: the entry point builds the configuration (engineConfigFromEnv) and passes it down.',
        },
      ],
    },
  },
);
