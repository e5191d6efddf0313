/**
 * The one result type of the code base: a value, or an error saying what went wrong. Nothing that
 * can fail on user input or the network throws; it returns one of these. `E` defaults to the
 * contract's error (what crosses the bridge); parsers and clients give their own.
 */
import type { ErrorKind } from './errors.ts';

export type Result<T, E = ApiError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });

/**
 * Where a call across the bridge failed: a request error's kind (network, http, protocol, server,
 * client — a model list that could not be fetched), `client` for a refused call too (busy, not
 * found, invalid arguments: see `code`), `io` for the file system, `internal` for a bug.
 */
export type ApiErrorKind = ErrorKind | 'io' | 'internal';

interface ApiError {
  kind: ApiErrorKind;
  message: string;
  /** Finer: 'busy', 'not-found', 'invalid-arguments', 'unknown-method', 'disconnected', an ErrorCode… */
  code?: string;
}

/**
 * What a caught value says: its message when it is an Error, else the value as text (a thrown
 * string, a rejected non-Error), where `(e as Error).message` would be undefined.
 */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
