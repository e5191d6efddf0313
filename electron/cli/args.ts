/** Parsers of the CLI's option values: each refuses bad input with a plain message (exit 2). */
import { InvalidArgumentError } from 'commander';
import { DIALECT_IDS, isDialectId, type DialectId } from '../../shared/dialects.ts';
import { MAX_IO_THREADS } from '../engine/io/io-limits.ts';

export function int(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0)
      throw new InvalidArgumentError(`${name} must be a non-negative integer.`);
    return n;
  };
}
export function num(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number.`);
    return n;
  };
}
export function dialect(v: string): DialectId {
  if (!isDialectId(v)) throw new InvalidArgumentError(`unknown dialect; one of: ${DIALECT_IDS.join(', ')}`);
  return v;
}
export function ioThreads(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > MAX_IO_THREADS)
    throw new InvalidArgumentError(`--io-threads must be an integer from 0 to ${MAX_IO_THREADS}.`);
  return n;
}
/** A repeatable option's values in order (no default: `--help` would print "(default: [])"). */
export function collect(v: string, prev: string[] = []): string[] {
  return [...prev, v];
}
