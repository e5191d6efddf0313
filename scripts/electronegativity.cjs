// Runs Electronegativity's CLI with the commander it was written for: the package requires
// `commander` without declaring it, and the one hoisted here (our CLI's, v14) has another API.
// Resolves `commander` to the `commander-v5` alias for requests from inside the package only.
// Also keeps it offline and its report stable: at start it fetches translations for $LANG from S3
// (1 s timeout; Electron releases too, when no version is given), so its `got` is a stub that
// fails at once; and its messages are pinned to en-US whatever $LANG is.
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
// Its CSV writer races itself: the header is written with an async writeFile (truncating) while
// the rows are appended by another async writeFile, so now and then the header lands over the
// first row. Its writeFile is made synchronous here, so the header is written before the rows.
const fs = require('node:fs');
const orderedFs = {
  ...fs,
  writeFile(file, data, options, callback) {
    const cb = typeof options === 'function' ? options : callback;
    const opts = typeof options === 'function' ? undefined : options;
    let err = null;
    try {
      fs.writeFileSync(file, data, opts);
    } catch (e) {
      err = e;
    }
    if (cb) process.nextTick(cb, err);
  },
};
const originalLoad = Module._load;
Module._load = function (request, parent, ...rest) {
  if (parent && parent.filename && parent.filename.startsWith(pkgDir)) {
    if (request === 'got') return offlineGot;
    if (request === 'fs') return orderedFs;
  }
  return originalLoad.call(this, request, parent, ...rest);
};
process.env.LANG = 'en-US';
delete process.env.LC_ALL;
require(path.join(pkgDir, 'dist/index.js'));
