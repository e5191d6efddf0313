/**
 * The trace prompt source: a Mooncake or BurstGPT trace (shared/runs/workload/trace-parse.ts) read into
 * prompts and planned send times. Prompt text is synthetic but shaped like the trace's: each block
 * id stands for a deterministic text of exactly `blockTokens` tokens (seeded by the workload's seed
 * and the id; the shared tokenizer, shared/tokenizer.ts, counts one token per word), so two requests
 * whose hash ids share their first k ids share their first k × blockTokens prompt tokens — the
 * server's prefix cache sees the trace's reuse. A last, partial block is the start of its block's
 * text; rows without hash ids (BurstGPT) get text of their own.
 *
 * Warm-up and test requests take the lengths of trace rows with text no trace row uses, so they
 * never put one of the trace's prefixes in the cache before the measured part.
 */
import path from 'node:path';
import { Rng } from '../../../shared/prng.ts';
import {
  describeTraceIssues,
  parseTrace,
  traceSchedule,
  type TraceRow,
} from '../../../shared/runs/workload/trace-parse.ts';
import { WORKLOAD_LIMITS, type PromptSource } from '../../../shared/runs/workload/workload.ts';
import { PromptFileError, readText } from './files.ts';
import { syntheticText, type PromptItem, type PromptProvider } from './items.ts';

type TraceSource = Extract<PromptSource, { type: 'trace' }>;

/** Block texts by id: the shared first blocks of a trace are built once. */
const BLOCK_CACHE_MAX = 4096;

class TraceText {
  private readonly blocks = new Map<number, string>();
  constructor(
    private readonly seed: number,
    private readonly blockTokens: number,
  ) {}

  /** The text of block `id`, cut to its first `tokens` tokens (a partial last block). */
  block(id: number, tokens = this.blockTokens): string {
    let full = this.blocks.get(id);
    if (full === undefined) {
      if (this.blocks.size >= BLOCK_CACHE_MAX) this.blocks.clear();
      full = syntheticText(this.blockTokens, new Rng(this.seed, `trace:block:${id}`));
      this.blocks.set(id, full);
    }
    if (tokens >= this.blockTokens) return full;
    // Every word is one token, one space apart: the first `tokens` words.
    let at = -1;
    for (let k = 0; k < tokens; k++) at = full.indexOf(' ', at + 1);
    return at < 0 ? full : full.slice(0, at);
  }

  /** A row's prompt: its blocks' texts in order, one space apart (the space is the next word's). */
  prompt(row: TraceRow, salt: string): string {
    if (!row.hashIds) return syntheticText(row.inputTokens, new Rng(this.seed, salt));
    const B = this.blockTokens;
    const last = row.hashIds.length - 1;
    return row.hashIds.map((id, k) => this.block(id, k < last ? B : row.inputTokens - last * B)).join(' ');
  }
}

const FORMAT_NAME = { mooncake: 'Mooncake', burstgpt: 'BurstGPT' } as const;

/** A span as people say it: 305.3 ms, 3.1 s, 12.5 min, 3.5 h, 30.0 days. */
function fmtS(ms: number): string {
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  if (ms < 172_800_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} days`;
}

export async function loadTracePrompts(
  src: TraceSource,
  seed: number,
  baseDir: string,
): Promise<PromptProvider> {
  const file = path.resolve(baseDir, src.path);
  const parsed = parseTrace(await readText(file), src.format, {
    blockTokens: src.blockTokens,
    startS: src.startS,
    endS: src.endS,
    maxTokens: WORKLOAD_LIMITS.tokens,
  });
  if (!parsed.ok) throw new PromptFileError(`${file}: ${describeTraceIssues(parsed.error)}`);
  const { rows, skipped, outside, format } = parsed.value;
  const schedule = traceSchedule(rows, src.speedup);
  const text = new TraceText(seed, src.blockTokens);
  const span = schedule.length > 0 ? rows[rows.length - 1]!.atMs - rows[0]!.atMs : 0;
  const notes = [
    skipped > 0 ? `${skipped} failed skipped` : null,
    outside > 0 ? `${outside} outside the window` : null,
  ].filter(Boolean);
  const description =
    `trace ${path.basename(file)} (${FORMAT_NAME[format]}, ${rows.length} requests over ${fmtS(span)}` +
    // How long the replay will take, said before it starts (a tiny --speedup can make it weeks).
    `${src.speedup !== 1 ? `, ×${src.speedup}` : ''} → replay takes ${fmtS(span / src.speedup)}` +
    `${notes.length ? `; ${notes.join(', ')}` : ''})`;
  // The text has exactly the row's tokens (one per word, trace.test.ts counts them).
  const item = (row: TraceRow, prompt: string): PromptItem => ({
    prompt,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
  });
  return {
    description,
    size: rows.length,
    force: src.force,
    schedule,
    at(i, stream = 'main') {
      if (stream === 'main') {
        const row = rows[i % rows.length]!;
        return item(row, text.prompt(row, `trace:row:${row.line}`));
      }
      // Lengths of a trace row, text of its own (no block id, so no cached prefix).
      const row = rows[new Rng(seed, `${stream}:pick:${i}`).int(rows.length)]!;
      return item(row, text.prompt({ ...row, hashIds: null }, `trace:${stream}:${i}`));
    },
  };
}
