/**
 * The built CLI's entry (out/cli/tokenscope.js, the package's `bin`): the same `main` that
 * bin/tokenscope.mjs runs from source through tsx in a clone.
 */
import { main } from './program.ts';

await main(process.argv);
