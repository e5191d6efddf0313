/**
 * Reading a run file's text (pure: the core reopens files with it, the renderer can read a dropped
 * file). A file is a trust boundary — users share them — so every line is validated; a bad line is
 * skipped and reported, never fatal. No summary line → `partial`, summary recomputed from the
 * request lines (summarize-run.ts), exactly as the runner computes it.
 */
import { z } from 'zod';
import { DIALECT_IDS } from '../dialects.ts';
import { RUN_FILE_FORMAT, type RunHeader, type RunRequestLine, type RunSummary } from './run-types.ts';
import { summarizeRunLines } from './summarize-run.ts';
import { WorkloadSchema } from './workload.ts';

const nul = <T extends z.ZodType>(t: T) => t.nullable();
const numN = nul(z.number());

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
});

const RequestSchema = z.object({
  type: z.literal('request'),
  seq: z.number().int(),
  id: z.string(),
  warmup: z.literal(true).optional(),
  scheduledMs: numN,
  arrivedMs: z.number(),
  startedMs: z.number(),
  queueMs: z.number(),
  sentMs: z.number().optional(),
  connection: z
    .object({ reused: z.boolean(), retried: z.boolean(), retryReason: z.string().optional() })
    .optional(),
  inputTokens: numN,
  inputTokensSource: z.enum(['usage', 'estimated']),
  expectedOutputTokens: numN,
  status: z.enum(['ok', 'error']),
  httpStatus: numN,
  phases: z.object({
    connectedMs: numN,
    requestWrittenMs: numN,
    headersMs: numN,
    firstByteMs: numN,
    endMs: numN,
  }),
  events: z
    .object({
      t: z.array(z.number()),
      tok: z.array(z.number().int().min(0)),
      f: z.array(z.number().int().min(0).max(255)),
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
  ttftMs: numN,
  tpotMs: numN,
  e2eMs: numN,
  outputTokens: z.number(),
  text: z.string().optional(),
});

export interface ParsedRun {
  header: RunHeader;
  requests: RunRequestLine[];
  summary: RunSummary;
  partial: boolean;
  /** Lines skipped or repaired, with their line numbers. */
  problems: string[];
}

export type ParseRunResult = { ok: true; run: ParsedRun } | { ok: false; error: string };

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
  const requests: RunRequestLine[] = [];
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
    const type = (v as { type?: unknown }).type;
    if (i === 0 || (header === null && type === 'header')) {
      const h = HeaderSchema.safeParse(v);
      if (!h.success)
        return { ok: false, error: `line ${i + 1}: not a Tokenscope run header (${issueText(h.error)})` };
      header = h.data as RunHeader;
    } else if (type === 'request') {
      const r = RequestSchema.safeParse(v);
      if (r.success) requests.push(r.data as RunRequestLine);
      else problems.push(`line ${i + 1}: bad request line (${issueText(r.error)}); skipped`);
    } else if (type === 'summary') {
      const s = (v as { summary?: unknown }).summary;
      if (typeof s === 'object' && s !== null && 'vllm' in s) summary = s as RunSummary;
      else problems.push(`line ${i + 1}: bad summary line; recomputing`);
    } else problems.push(`line ${i + 1}: unknown line type; skipped`);
  }
  if (!header) return { ok: false, error: 'empty file: no run header' };
  const partial = summary === null;
  if (!summary) summary = summarizeRunLines(header, requests, { partial: true });
  return { ok: true, run: { header, requests, summary, partial, problems } };
}
