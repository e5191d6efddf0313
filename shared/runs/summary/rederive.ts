/**
 * A run under another preset's per-request rules (definitions.ts), from its events, and which
 * preset a comparison uses. Shared by `tokenscope compare` and the app's comparison and summary
 * views, so both re-derive the same way.
 */
import { DEFINITIONS, outcomeUnder, type DefinitionsId } from './definitions.ts';
import { isCancelledLine } from './outcome.ts';
import type { RequestOutcome } from './outcome.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import type { RunSummary } from './schema.ts';
import { summarizeRunLines } from './summarize-run.ts';
import type { SummarizeRunOptions } from './run-accumulator.ts';
import { LETTERS } from '../letters.ts';

export interface Rederived {
  summary: RunSummary;
  outcomes: RequestOutcome[];
  strata?: number[] | null;
}

/**
 * A native run's summary and outcomes under `d`: the measured duration, the server side and the
 * self-check are the stored summary's (they do not depend on per-request rules).
 */
export function rederiveRun(
  header: RunHeader,
  lines: readonly RunRequestLine[],
  stored: RunSummary,
  d: DefinitionsId,
): Rederived {
  const measured = lines.filter((l) => !l.warmup && !isCancelledLine(l));
  const summary = rederivedSummary(summarizeRunLines(header, lines, rederiveOptions(stored, d)), stored);
  return { summary, outcomes: measured.map((l) => outcomeUnder(l, d, header.target.dialect)) };
}

/** What a re-derived summary takes from the stored one (the runner's `alsoUnder` too). */
export function rederiveOptions(stored: RunSummary, d: DefinitionsId): SummarizeRunOptions {
  return {
    durationS: stored.vllm.duration,
    definitions: d,
    partial: stored.partial,
    cancelled: stored.cancelled,
    selfCheck: stored.selfCheck,
    sharedClock: stored.serverPhases?.sharedClock,
  };
}

/** A re-derived summary with the stored one's server side. */
export function rederivedSummary(summary: RunSummary, stored: RunSummary): RunSummary {
  if (stored.server !== undefined) summary.server = stored.server;
  return summary;
}

/**
 * The preset a comparison uses: the one asked for, else the imported results' (a vLLM result makes
 * it vLLM's), else Tokenscope's — or why the runs cannot be compared like with like (imports of
 * different tools, or an import under other definitions than asked: an import has no events).
 * `fixed[i]`: run i's definitions when it cannot be re-derived (an import), else null.
 */
export function comparisonDefinitions(
  fixed: readonly (DefinitionsId | null)[],
  asked: DefinitionsId | undefined,
): { definitions: DefinitionsId; defaulted: boolean } | string {
  const imports = fixed.flatMap((d, i) => (d === null ? [] : [{ i, d }]));
  const kinds = [...new Set(imports.map((x) => x.d))];
  if (asked === undefined && kinds.length > 1)
    return `the results were measured under different definitions (${imports
      .map((x) => `${LETTERS[x.i]} ${x.d}`)
      .join(', ')}): their numbers cannot be compared like with like`;
  const d = asked ?? kinds[0] ?? 'tokenscope';
  const other = imports.find((x) => x.d !== d);
  if (other)
    return `${LETTERS[other.i]} is a result measured under ${DEFINITIONS[other.d].name}'s definitions and cannot be re-derived under ${d}'s (it has no events): compare with --definitions ${other.d}`;
  return { definitions: d, defaulted: asked === undefined };
}

/** One line: the definitions used, and which runs were re-derived under them. */
export function definitionsLine(
  definitions: DefinitionsId,
  rederived: readonly boolean[],
  defaulted: boolean,
): string {
  const re = rederived.flatMap((r, i) => (r ? [LETTERS[i]] : []));
  const why = defaulted && definitions !== 'tokenscope' ? ' (the imported result’s)' : '';
  return `Definitions: ${DEFINITIONS[definitions].name} (${definitions})${why}${
    re.length ? ` — ${re.join(', ')} re-derived from ${re.length === 1 ? 'its' : 'their'} events` : ''
  }.`;
}

const CLIENT_NAME: Record<RunSummary['source'], string> = {
  tokenscope: 'Tokenscope',
  vllm: 'vLLM’s benchmark client (Python, aiohttp)',
  sglang: 'SGLang’s bench_serving (Python, aiohttp)',
};

/**
 * When the runs were measured by different clients (an imported result beside a Tokenscope run):
 * who measured which, and what that does to first-token times. Null when one client measured all.
 * The figures are bench/vllm-client.bench.ts's (BENCHMARKS.md).
 */
export function clientsNote(summaries: readonly Pick<RunSummary, 'source' | 'measuredBy'>[]): string | null {
  const sources = summaries.map((s) => s.measuredBy ?? s.source);
  const kinds = [...new Set(sources)];
  if (kinds.length < 2) return null;
  const who = kinds
    .map((k) => `${sources.flatMap((s, i) => (s === k ? [LETTERS[i]] : [])).join(', ')} by ${CLIENT_NAME[k]}`)
    .join('; ');
  const sglang = kinds.includes('sglang')
    ? ' SGLang’s client reads streams the same way; its delay was not measured.'
    : '';
  return (
    `Measured by different clients: ${who}. Under load a Python client stamps first tokens later than ` +
    `Tokenscope (vLLM’s: +1.9 to +2.9 ms on the mean TTFT, up to +9 ms at p99 in a burst of 16, against ` +
    `Tokenscope’s +0.6 to +0.9 ms, both checked against a server’s log): a TTFT difference of that size ` +
    `is the clients’, not the servers’.${sglang}`
  );
}
