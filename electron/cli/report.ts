/**
 * `tokenscope report RUN… -o report.html`: one self-contained HTML page (shared/report/) with each
 * run's numbers, charts and swimlane, and for several runs their comparison — the files read as
 * `compare` reads them (run files, vLLM / SGLang results, repeats joined with `+` pooled into one
 * column), so the report's comparison is the one `compare` prints. Exit codes as `compare`'s:
 * 0 written, 2 bad arguments or an unreadable file, 1 the file could not be written or the report
 * page is missing from this build and cannot be built (a setup problem, not bad usage).
 */
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunDetail } from '../../shared/runs-api.ts';
import { MAX_COMPARED } from '../../shared/runs/compare/compare.ts';
import type { LoadedRun } from '../../shared/runs/compare/runs.ts';
import type { DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import { makeReport } from '../runs/export/report-file.ts';
import { loadRunOrPool } from './compare-load.ts';
import { errorMessage } from '../../shared/result.ts';

export interface ReportCliOptions {
  output: string;
  definitions?: DefinitionsId;
  /** Bootstrap replicates for the comparison's intervals (default 1000; 0: none). */
  replicates?: number;
  /** The equivalence margin of the comparison's verdicts, % (as `compare --same-within`). */
  sameWithin?: number;
}

/** A run read from a file as the run views take it (a result file: no lines, its outcomes). */
function detailOfLoaded(r: LoadedRun, sizeBytes: number): RunDetail {
  const h = r.header;
  const s = r.summary;
  const problems = [...(r.problems ?? [])];
  if (r.note && !problems.some((p) => r.note!.includes(p))) problems.unshift(r.note);
  return {
    entry: {
      key: path.basename(r.file),
      runId: h?.runId ?? path.basename(r.file),
      name: r.label,
      startedAtWall: h?.startedAtWall ?? 0,
      model: r.model ?? '',
      url: r.url ?? '',
      dialect: h?.target.dialect ?? '',
      source: s.source,
      imported: h === null,
      partial: s.partial,
      damage: r.note?.startsWith('damaged') ? r.note : null,
      cancelled: s.cancelled,
      running: false,
      completed: s.vllm.completed,
      failed: s.vllm.failed,
      durationS: s.vllm.duration,
      flagged: s.selfCheck?.flagged ?? false,
      sizeBytes,
      ...(h?.repeat ? { repeat: h.repeat } : {}),
    },
    header: h,
    summary: s,
    lines: r.lines ? [...r.lines] : null,
    outcomes: r.lines ? null : r.outcomes ? [...r.outcomes] : null,
    problems,
  };
}

export async function runReport(
  files: string[],
  o: ReportCliOptions,
  write: (s: string) => void = (s) => void process.stdout.write(s),
): Promise<number> {
  const fail = (message: string, code = 2): number => {
    process.stderr.write(`error: ${message}\n`);
    return code;
  };
  if (files.length < 1) return fail('report takes at least one run file');
  if (
    o.replicates !== undefined &&
    !(Number.isInteger(o.replicates) && o.replicates >= 0 && o.replicates <= 100_000)
  )
    return fail('--replicates must be a whole number from 0 (no intervals) to 100000');
  if (o.sameWithin !== undefined && !(o.sameWithin >= 0 && o.sameWithin < 100))
    return fail('--same-within must be a percentage from 0 to below 100');
  const loaded = await Promise.all(files.map((f) => loadRunOrPool(f)));
  const bad = loaded.filter((x): x is string => typeof x === 'string');
  if (bad.length) return fail(bad.join('; '));
  const columns = (loaded as LoadedRun[][]).flat();
  if (columns.length > MAX_COMPARED)
    return fail(
      `a report compares at most ${MAX_COMPARED} runs (or pools of repeats), got ${columns.length}`,
    );
  // Each run's own section: a pooled column's repeats one by one.
  const parts = columns.flatMap((c) => c.parts ?? [c]);
  const sizes = await Promise.all(
    parts.map((p) =>
      stat(p.file).then(
        (st) => st.size,
        () => 0,
      ),
    ),
  );
  // From a clone the report page is built on first use, as `serve` builds the UI (report-build.ts).
  const r = await makeReport(
    {
      runs: parts.map((p, i) => detailOfLoaded(p, sizes[i]!)),
      compare: columns.length > 1 ? columns : null,
      definitions: o.definitions,
      replicates: o.replicates,
      ...(o.sameWithin === undefined ? {} : { sameWithin: o.sameWithin / 100 }),
    },
    (line) => process.stderr.write(line + '\n'),
  );
  // No page to fill is this build's problem, not the arguments': exit 1.
  if (!r.ok)
    return fail(r.error.message, r.error.code === 'no-template' || r.error.code === 'bad-template' ? 1 : 2);
  try {
    await writeFile(o.output, r.value, { mode: 0o600 });
  } catch (e) {
    return fail(`cannot write ${o.output}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`, 1);
  }
  const kb = Buffer.byteLength(r.value) / 1024;
  const what =
    columns.length > 1
      ? `${columns.length} runs and their comparison`
      : `${parts.length} run${parts.length > 1 ? 's' : ''}`;
  write(
    `Wrote ${o.output} (${what}, ${kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${Math.round(kb)} KB`}): one self-contained page, open it in any browser, offline.\n`,
  );
  return 0;
}
