/**
 * The summary of a native run from its file lines: the runner's is the same accumulator fed as
 * requests finish (run-accumulator.ts), and the reader calls this for a partial file (no summary
 * line), so both give the same numbers.
 */
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import type { RunSummary } from './schema.ts';
import { RunAccumulator, type SummarizeRunOptions } from './run-accumulator.ts';

export function summarizeRunLines(
  header: RunHeader,
  lines: readonly RunRequestLine[],
  o: SummarizeRunOptions = {},
): RunSummary {
  const acc = new RunAccumulator(header, o.definitions);
  for (const l of lines) acc.add(l);
  return acc.summary(o);
}
