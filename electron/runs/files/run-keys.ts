/**
 * How the runs folder names its runs: a key is a plain file name in the folder, or
 * `imported/NAME#i` for the i-th result of an imported file; anything else is refused. And the
 * error the run library answers with (its kind says how the caller reports it).
 */
import path from 'node:path';

export const IMPORTED_DIR = 'imported';

export class RunError extends Error {
  constructor(
    message: string,
    readonly kind: 'client' | 'busy' | 'not-found' | 'io' = 'client',
  ) {
    super(message);
  }
}

/** A plain file name: letters, digits, `.`, `_` and `-`. */
export const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/** A key → a path inside the folder `dir`; anything else is refused. */
export function resolveRunKey(
  dir: string,
  key: string,
): { file: string; index: number | null; imported: boolean } {
  const m = /^(imported\/)?([^/#]+)(?:#(\d{1,4}))?$/.exec(key);
  if (!m || !SAFE_NAME.test(m[2]!) || m[2] === '.' || m[2] === '..')
    throw new RunError(`not a run key: ${key}`);
  const imported = !!m[1];
  const file = imported ? path.join(dir, IMPORTED_DIR, m[2]!) : path.join(dir, m[2]!);
  if (!imported && m[3] !== undefined) throw new RunError(`not a run key: ${key}`);
  return { file, index: m[3] !== undefined ? Number(m[3]) : imported ? 0 : null, imported };
}

/** A failed file operation on a run: gone (not-found), else an I/O error with its message. */
export function runFileError(key: string, e: NodeJS.ErrnoException): RunError {
  return new RunError(
    e.code === 'ENOENT' ? `no run ${key}` : e.message,
    e.code === 'ENOENT' ? 'not-found' : 'io',
  );
}
