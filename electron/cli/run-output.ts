/**
 * What `tokenscope run` prints: the progress line on stderr (redrawn on a TTY, plain lines every
 * few seconds otherwise), then the summary table or JSON with its warnings and exit code, and after
 * a target's repeats how much they differed and their pooled summary.
 */
import { progressLine, testRequestLine } from '../../shared/runs/live/progress-text.ts';
import type { RunProgress } from '../../shared/runs/live/progress-types.ts';
import { poolRuns, repeatSpread, spreadText } from '../../shared/runs/compare/pooled.ts';
import type { RunHeader } from '../../shared/runs/file/line-schema.ts';
import { rederiveRun } from '../../shared/runs/summary/rederive.ts';
import { replayWarning } from '../../shared/runs/summary/replay-lag.ts';
import { summaryJson } from '../../shared/runs/summary/json.ts';
import { summaryText } from '../../shared/runs/summary/text.ts';
import type { RunResult } from '../runs/runner.ts';
import { loadRun, type LoadedRun } from './compare.ts';
import { writeControl } from './redact-output.ts';
import type { RunCliOptions } from './run-flags.ts';

/** The run's callbacks that draw its progress on stderr, and `end` once it is over. */
export function progressWriter(o: RunCliOptions): {
  onStarted: (h: RunHeader) => void;
  onProgress: (p: RunProgress) => void;
  end: () => void;
} {
  const tty = process.stderr.isTTY === true && !o.quiet;
  const plain = !tty && !o.quiet;
  let lastPlain = 0;
  return {
    onStarted: (h) => {
      if (h.testRequest && !o.quiet) {
        if (tty) writeControl('\r\x1b[2K');
        process.stderr.write(testRequestLine(h.testRequest) + '\n');
      }
    },
    onProgress: (p) => {
      if (tty) {
        writeControl('\r\x1b[2K');
        process.stderr.write(progressLine(p));
      } else if (
        plain &&
        (performance.now() - lastPlain > 2000 || p.phase === 'done' || p.phase === 'cancelled')
      ) {
        lastPlain = performance.now();
        process.stderr.write(progressLine(p) + '\n');
      }
    },
    end: () => {
      if (tty) process.stderr.write('\n');
    },
  };
}

/**
 * The finished run's summary (table or JSON) and warnings; its exit code: 130 cancelled, 1 when
 * every request failed or the file could not be written, else 0.
 */
export function printRunResult(result: RunResult, o: RunCliOptions): number {
  const s = result.summary;
  if (o.json) {
    // vLLM's keys under vLLM's own per-request rules, so they compare one to one with vllm bench serve.
    const underVllm =
      result.rederived ?? (result.lines ? rederiveRun(result.header, result.lines, s, 'vllm').summary : null);
    const extra = { run_file: result.path, run_id: result.header.runId };
    process.stdout.write(JSON.stringify(summaryJson(s, extra, underVllm ?? undefined)) + '\n');
  } else process.stdout.write(summaryText(s) + `Run file: ${result.path}\n`);
  if (result.fileError) process.stderr.write(`warning: ${result.fileError}\n`);
  if (s.selfCheck?.flagged && !o.quiet)
    process.stderr.write(`warning: client timing may be distorted: ${s.selfCheck.reasons.join('; ')}\n`);
  const lagWarning = replayWarning(s.replay);
  if (lagWarning && !o.quiet) process.stderr.write(`warning: ${lagWarning}\n`);
  if (result.cancelled) return 130;
  if (s.vllm.completed === 0) {
    if (!o.json)
      process.stderr.write(
        `error: every request failed (${
          Object.entries(s.errors)
            .map(([k, n]) => `${k} ×${n}`)
            .join(', ') || 'none completed'
        })\n`,
      );
    return 1;
  }
  return result.fileError ? 1 : 0;
}

/** After the repeats of one target: how much they differed, then the pooled summary. */
export async function printPooled(files: readonly string[], o: RunCliOptions): Promise<number> {
  const runs = await Promise.all(files.map((f) => loadRun(f)));
  const bad = runs.find((r): r is string => typeof r === 'string');
  if (bad) {
    process.stderr.write(`error: ${bad}\n`);
    return 1;
  }
  const loaded = runs as LoadedRun[];
  const spread = repeatSpread(loaded.map((r) => r.summary));
  const pooled = poolRuns(
    loaded.map((r) => ({ header: r.header, summary: r.summary, outcomes: r.outcomes ?? [] })),
  );
  if (o.json) {
    process.stdout.write(
      JSON.stringify({
        pooled: summaryJson(pooled.summary, { run_files: files, repeats: files.length }),
        spread,
      }) + '\n',
    );
  } else {
    process.stdout.write(
      `\n${spreadText(spread)}\n` +
        `Pooled over ${files.length} repeats (compare them as one: tokenscope compare ${files.join('+')} …)\n` +
        summaryText(pooled.summary),
    );
  }
  return 0;
}
