/**
 * What `tokenscope compare` compares: run files, vLLM/SGLang result files (every result of an
 * appended file, or FILE#N), repeats joined with `+` pooled into one column; and the definitions
 * they are compared under (natives re-derived from their events, imports as measured).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isCancelledLine, outcomeOfLine } from '../../shared/runs/summary/outcome.ts';
import type { DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import { rederiveRun } from '../../shared/runs/summary/rederive.ts';
import { poolLoaded, type LoadedRun } from '../../shared/runs/compare/runs.ts';
import { parseRunText } from '../../shared/runs/run-file/parse.ts';
import { detectResultFormat, importSglangText } from '../../shared/runs/import/sglang-format.ts';
import { importVllmText } from '../../shared/runs/import/vllm-format.ts';
import { errorMessage } from '../../shared/result.ts';

export { resolveDefinitions, type LoadedRun } from '../../shared/runs/compare/runs.ts';

/**
 * A compared run: one file, or repeats joined with `+` (`a.r1.jsonl+a.r2.jsonl`) pooled into one
 * (shared/runs/compare/pooled.ts). A name that exists as a file is that file, `+` or not.
 */
export async function loadRunOrPool(arg: string): Promise<LoadedRun[] | string> {
  const parts = arg.split('+');
  if (parts.length === 1 || (await exists(arg))) return loadRuns(arg);
  const loaded = await Promise.all(parts.map((f) => loadRun(f)));
  const bad = loaded.find((x): x is string => typeof x === 'string');
  if (bad) return bad;
  const pooled = poolLoaded(loaded as LoadedRun[], parts.join(' + '));
  return typeof pooled === 'string' ? pooled : [pooled];
}

async function exists(f: string): Promise<boolean> {
  try {
    await stat(f);
    return true;
  } catch {
    return false;
  }
}

/** One run: a run file, or a result file with one result (or `FILE#N`, its Nth). */
export async function loadRun(arg: string): Promise<LoadedRun | string> {
  const r = await loadRuns(arg);
  if (typeof r === 'string') return r;
  if (r.length !== 1)
    return `${arg}: holds ${r.length} results (vLLM --append-result): pick one as ${arg}#1 … ${arg}#${r.length}`;
  return r[0]!;
}

/**
 * The runs of a file: a run file's one run, or every result of a vLLM / SGLang file (vLLM's
 * --append-result appends one per benchmark). `FILE#N` picks the Nth result (1-based).
 */
async function loadRuns(arg: string): Promise<LoadedRun[] | string> {
  let file = arg;
  let pick: number | null = null;
  const m = /^(.*)#(\d+)$/.exec(arg);
  if (m && !(await exists(arg))) {
    file = m[1]!;
    pick = Number(m[2]);
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return `${file}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`;
  }
  const base = path.basename(file);
  const f = detectResultFormat(text);
  if (f === 'tokenscope') {
    const r = parseRunText(text);
    if (!r.ok) return `${file}: ${r.error}`;
    // The same request twice is not a file one run wrote (concatenated, edited): its numbers
    // would count it twice, or silently drop one; refuse rather than guess.
    const dup = r.value.problems.find((p) => p.includes('appears again'));
    if (dup) return `${file}: duplicate request lines (${dup}); not a file one run wrote, not compared`;
    const h = r.value.header;
    const n = r.value.requests.filter((l) => !l.warmup).length;
    const note = r.value.damage
      ? `damaged: ${r.value.damage}; recomputed from ${n} request lines`
      : r.value.partial
        ? `partial: no summary line, recomputed from ${n} request lines`
        : r.value.problems.length > 0
          ? `${r.value.problems.length} line${r.value.problems.length === 1 ? '' : 's'} skipped: ${r.value.problems[0]}`
          : null;
    if (pick !== null && pick !== 1) return `${arg}: a run file holds one run`;
    return [
      {
        file,
        label: h.name ?? base,
        model: h.target.model,
        url: h.target.url,
        header: h,
        summary: r.value.summary,
        outcomes: r.value.requests
          .filter((l) => !l.warmup && !isCancelledLine(l))
          .map((l) => outcomeOfLine(l)),
        note,
        rederive: (d: DefinitionsId) => rederiveRun(h, r.value.requests, r.value.summary, d),
        lines: r.value.requests,
        problems: r.value.problems,
      },
    ];
  }
  if (f === 'vllm' || f === 'sglang') {
    const r = f === 'vllm' ? importVllmText(text) : importSglangText(text);
    if (!r.ok) return `${file}: ${r.error}`;
    if (r.value.runs.length === 0) return `${file}: no result in the file`;
    if (pick !== null && (pick < 1 || pick > r.value.runs.length))
      return `${arg}: the file holds ${r.value.runs.length} result${r.value.runs.length === 1 ? '' : 's'}`;
    const several = r.value.runs.length > 1;
    const chosen =
      pick === null
        ? r.value.runs.map((x, i) => [x, i] as const)
        : [[r.value.runs[pick - 1]!, pick - 1] as const];
    return chosen.map(([run, i]) => ({
      file: several ? `${file}#${i + 1}` : file,
      label: `${run.label ?? base}${several ? ` #${i + 1}` : ''}`,
      model: run.model,
      url: null,
      header: null,
      summary: run.summary,
      outcomes: run.outcomes,
    }));
  }
  return `${file}: not a Tokenscope run file, nor a vLLM or SGLang result`;
}
