/**
 * Reading a run file's text (pure: the core reopens files with it, the renderer can read a dropped
 * file). A file is a trust boundary — users share them — so every line is validated; a bad line is
 * skipped and reported, never fatal. No summary line → `partial`, summary recomputed from the
 * request lines (summarize-run.ts), exactly as the runner computes it.
 */
import { z } from 'zod';
import { DIALECT_IDS } from '../dialects.ts';
import { fail, ok, type Result } from '../result.ts';
import { applyTokenized, TokenizedLineSchema, type RunTokenizedLine } from './tokenized-line.ts';
import { RUN_FILE_FORMAT, type RunHeader, type RunRequestLine, type RunSummary } from './run-types.ts';
import { summarizeRunLines } from './summarize-run.ts';
import { RunSummarySchema } from './summary-schema.ts';
import { MergeInfoSchema, ShardInfoSchema } from './shard-schema.ts';
import { WorkloadSchema } from './workload.ts';

const nul = <T extends z.ZodType>(t: T) => t.nullable();
const numN = nul(z.number());
/** A time since the request started, or a duration: never negative (zod 4 numbers are finite). */
const msN = nul(z.number().min(0));
const ms = z.number().min(0);

const HeaderSchema = z.object({
  type: z.literal('header'),
  format: z.literal(RUN_FILE_FORMAT),
  version: z.number().int(),
  runId: z.string(),
  name: nul(z.string()),
  workload: WorkloadSchema,
  target: z.object({
    url: z.string(),
    dialect: z.enum(DIALECT_IDS),
    model: z.string(),
    headerNames: z.array(z.string()),
    authenticated: z.boolean(),
  }),
  tokenscopeVersion: z.string(),
  nodeVersion: z.string(),
  platform: z.string(),
  startedAtWall: z.number(),
  startedAt: z.string(),
  clockZeroWall: z.number().optional(),
  repeat: z
    .object({ group: z.string(), index: z.number().int().min(1), of: z.number().int().min(1) })
    .optional(),
  testRequest: z
    .object({
      attempts: z.number().int().min(1),
      ttftMs: msN,
      e2eMs: msN,
      outputTokens: z.number().int().min(0),
      responseModel: z.string().max(1000).optional(),
    })
    .optional(),
  shard: ShardInfoSchema.optional(),
  merged: MergeInfoSchema.optional(),
});

const RequestSchema = z.object({
  type: z.literal('request'),
  seq: z.number().int(),
  id: z.string(),
  warmup: z.literal(true).optional(),
  scheduledMs: numN,
  arrivedMs: z.number(),
  startedMs: z.number(),
  queueMs: ms,
  sentMs: z.number().optional(),
  lagMs: z.number().optional(),
  connection: z
    .object({ reused: z.boolean(), retried: z.boolean(), retryReason: z.string().optional() })
    .optional(),
  inputTokens: numN,
  inputTokensSource: z.enum(['usage', 'estimated']),
  expectedOutputTokens: numN,
  status: z.enum(['ok', 'error']),
  httpStatus: numN,
  phases: z.object({
    connectedMs: msN,
    requestWrittenMs: msN,
    headersMs: msN,
    firstByteMs: msN,
    endMs: msN,
  }),
  events: z
    .object({
      t: z.array(ms),
      tok: z.array(z.number().int().min(0)),
      f: z.array(z.number().int().min(0).max(0xffff)),
    })
    .refine((e) => e.t.length === e.tok.length && e.t.length === e.f.length, {
      message: 'event columns differ in length',
    }),
  finishReason: nul(z.string()),
  usage: nul(
    z.object({
      promptTokens: numN,
      completionTokens: numN,
      totalTokens: numN,
      cachedTokens: numN.optional(),
      reasoningTokens: numN.optional(),
    }),
  ),
  tokenSource: z.enum(['per-event', 'usage-total', 'estimated']),
  error: nul(
    z.object({
      kind: z.enum(['network', 'http', 'protocol', 'server', 'client']),
      code: z.string(),
      message: z.string(),
      status: z.number().optional(),
      atMs: z.number().optional(),
    }),
  ),
  textLength: z.number(),
  reasoningLength: z.number(),
  bytes: z.number(),
  terminated: z.boolean(),
  serverRequestId: nul(z.string()),
  ttftMs: msN,
  tpotMs: msN,
  e2eMs: msN,
  outputTokens: z.number().min(0),
  reasoningTokens: z.number().int().min(0).optional(),
  reasoningTokensExact: z.boolean().optional(),
  ttfatMs: msN.optional(),
  text: z.string().optional(),
  tokenizedOutputTokens: z.number().int().min(0).optional(),
  promptHash: z.string().optional(),
  shard: z.number().int().min(0).optional(),
  session: z.number().int().min(0).optional(),
  turn: z.number().int().min(1).optional(),
});

export interface ParsedRun {
  header: RunHeader;
  requests: RunRequestLine[];
  summary: RunSummary;
  partial: boolean;
  /**
   * Why the file's own summary was not used (malformed, impossible values): the summary above was
   * recomputed from its request lines. null when the file's summary was sound (or it had none).
   */
  damage: string | null;
  /** Lines skipped or repaired, with their line numbers. */
  problems: string[];
}

export type ParseRunResult = Result<ParsedRun, string>;

function issueText(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.join('.') || '(line)'}: ${i.message}` : 'invalid';
}

export function parseRunText(text: string): ParseRunResult {
  const raw = text.split('\n');
  const endsClean = text.endsWith('\n');
  const problems: string[] = [];
  let header: RunHeader | null = null;
  let summary: RunSummary | null = null;
  let damage: string | null = null;
  const requests: RunRequestLine[] = [];
  const tokenized: RunTokenizedLine[] = [];
  const seenIds = new Set<string>();
  const seenSeqs = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!;
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      const last = i === raw.length - 1 && !endsClean;
      problems.push(
        last
          ? `line ${i + 1}: incomplete (the run stopped mid-write); skipped`
          : `line ${i + 1}: not JSON; skipped`,
      );
      continue;
    }
    const type = typeof v === 'object' && v !== null ? (v as { type?: unknown }).type : undefined;
    if (i === 0 || (header === null && type === 'header')) {
      const h = HeaderSchema.safeParse(v);
      if (!h.success) return fail(`line ${i + 1}: not a Tokenscope run header (${issueText(h.error)})`);
      header = h.data as RunHeader;
    } else if (type === 'request') {
      const r = RequestSchema.safeParse(v);
      if (!r.success) {
        problems.push(`line ${i + 1}: bad request line (${issueText(r.error)}); skipped`);
        continue;
      }
      // The same request twice (a file concatenated or edited by hand) would count twice.
      // Warm-up requests number their own sequence (w00000 …) beside the measured one (r00000 …).
      const seqKey = `${r.data.warmup ? 'w' : 'r'}${r.data.seq}`;
      if (seenIds.has(r.data.id) || seenSeqs.has(seqKey)) {
        problems.push(`line ${i + 1}: request ${r.data.seq} (${r.data.id}) appears again; the first kept`);
        continue;
      }
      seenIds.add(r.data.id);
      seenSeqs.add(seqKey);
      requests.push(r.data as RunRequestLine);
    } else if (type === 'summary') {
      const s = RunSummarySchema.safeParse((v as { summary?: unknown }).summary);
      if (s.success) summary = s.data as RunSummary;
      else {
        damage = `its summary line is malformed (${issueText(s.error)})`;
        problems.push(
          `line ${i + 1}: bad summary line (${issueText(s.error)}); recomputed from the request lines`,
        );
      }
    } else if (type === 'tokenized') {
      const t = TokenizedLineSchema.safeParse(v);
      if (t.success) tokenized.push(t.data);
      else problems.push(`line ${i + 1}: bad tokenized line (${issueText(t.error)}); skipped`);
    } else problems.push(`line ${i + 1}: unknown line type; skipped`);
  }
  for (const t of tokenized) applyTokenized(requests, t);
  if (!header) return fail('empty file: no run header');
  const partial = summary === null && damage === null;
  if (!summary) summary = summarizeRunLines(header, requests, { partial });
  if (damage && problems.some((p) => p.includes('appears again')))
    damage += '; duplicate request lines dropped';
  else if (!damage && problems.some((p) => p.includes('appears again')))
    damage = 'duplicate request lines (the first of each kept)';
  return ok({ header, requests, summary, partial, damage, problems });
}
