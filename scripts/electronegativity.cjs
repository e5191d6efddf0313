// Runs Electronegativity's CLI with the commander it was written for: the package requires
// `commander` without declaring it, and the one hoisted here (our CLI's, v14) has another API.
// Resolves `commander` to the `commander-v5` alias for requests from inside the package only.
// Also keeps it offline and its report stable: at start it fetches translations for $LANG from S3
// (1 s timeout; Electron releases too, when no version is given) and picks its locale from $LANG; under some locales (LANG=POSIX, as a CI shell may
// have) it writes a broken CSV row. So its `got` is a stub that fails at once, and LANG is en-US.
const Module = require('node:module');
const path = require('node:path');

const pkgDir = path.dirname(require.resolve('@doyensec/electronegativity/package.json'));
const v5 = require.resolve('commander-v5');
const original = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'commander' && parent && parent.filename && parent.filename.startsWith(pkgDir)) return v5;
  return original.call(this, request, parent, ...rest);
};
const offlineGot = () => Promise.reject(new Error('offline: nothing is fetched'));
offlineGot.head = offlineGot;
offlineGot.get = offlineGot;
const originalLoad = Module._load;
Module._load = function (request, parent, ...rest) {
  if (request === 'got' && parent && parent.filename && parent.filename.startsWith(pkgDir)) {
    return offlineGot;
  }
  return originalLoad.call(this, request, parent, ...rest);
};
process.env.LANG = 'en-US';
delete process.env.LC_ALL;
require(path.join(pkgDir, 'dist/index.js'));
