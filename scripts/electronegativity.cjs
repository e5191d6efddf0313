// Runs Electronegativity's CLI with the commander it was written for: the package requires
// `commander` without declaring it, and the one hoisted here (our CLI's, v14) has another API.
// Resolves `commander` to the `commander-v5` alias for requests from inside the package only.
const Module = require('node:module');
const path = require('node:path');

const pkgDir = path.dirname(require.resolve('@doyensec/electronegativity/package.json'));
const v5 = require.resolve('commander-v5');
const original = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'commander' && parent && parent.filename && parent.filename.startsWith(pkgDir)) return v5;
  return original.call(this, request, parent, ...rest);
};
require(path.join(pkgDir, 'dist/index.js'));
