/**
 * The workload file: what a load run sends, how fast, and to whom. Readable JSON that the app and
 * `tokenscope run` both take; every field is documented in electron/runs/README.md. Validated here
 * with zod (a trust boundary: users share these files); errors come back with their paths.
 *
 * Never in a workload: API keys (the schema rejects `apiKey` and an `authorization` header —
 * keys come from the app's key store, `--api-key` or TOKENSCOPE_API_KEY).
 */
import { fail, ok, type Result } from '../../result.ts';
import { z } from 'zod';
import { DIALECT_IDS } from '../../dialects.ts';
import { IMAGE_DIALECTS, ImagesSpec } from './images.ts';
import { ModelMix } from './models.ts';
import { PoolingWorkload } from './pooling.ts';
import { ToolsWorkload } from './tools.ts';

const int1 = z.number().int().min(1);

/**
 * Upper bounds: far past any real workload, low enough that a typo (`inputLen: 1e9`) is a clear
 * message instead of a process that runs out of memory. docs/security.md lists them.
 */
export const WORKLOAD_LIMITS = {
  /** Tokens in one prompt or one output (a million-token context fits). */
  tokens: 1_048_576,
  requests: 10_000_000,
  concurrency: 10_000,
  /** Requests per second. */
  rate: 100_000,
  warmup: 100_000,
  /** Seconds (a week). */
  durationS: 7 * 24 * 3600,
  /** Turns of one multi-turn conversation. */
  turns: 1000,
  /** A Node timer holds at most 2^31 − 1 ms (about 24.8 days). */
  timerMs: 2 ** 31 - 1,
} as const;
const L = WORKLOAD_LIMITS;
const tokens = int1.max(L.tokens, `at most ${L.tokens} tokens`);

/** A length distribution in tokens. A bare number means fixed. */
export const LengthDist = z.preprocess(
  (v) => (typeof v === 'number' ? { type: 'fixed', value: v } : v),
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('fixed'), value: tokens }).strict(),
    z
      .object({ type: z.literal('uniform'), min: tokens, max: tokens })
      .strict()
      .refine((d) => d.min <= d.max, { message: 'min must be ≤ max', path: ['max'] }),
    z
      .object({
        type: z.literal('normal'),
        mean: z.number().positive().max(L.tokens),
        std: z.number().min(0).max(L.tokens),
        min: tokens.optional(),
        max: tokens.optional(),
      })
      .strict(),
  ]),
);
export type LengthDist = z.output<typeof LengthDist>;

/**
 * How output lengths are forced: vLLM's random dataset sends `ignore_eos` (so generation runs to
 * max_tokens); `min_tokens` does the same on servers without ignore_eos. Default per source:
 * synthetic → ignore_eos, files → none.
 */
export const ForceOutput = z.enum(['none', 'ignore_eos', 'min_tokens', 'both']);
export type ForceOutput = z.output<typeof ForceOutput>;

export const PromptSource = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('synthetic'),
      inputLen: LengthDist.default({ type: 'fixed', value: 128 }),
      outputLen: LengthDist.default({ type: 'fixed', value: 128 }),
      /** Text put before every generated prompt (e.g. a shared system-like prefix to test prefix caching). */
      prefix: z.string().max(1_000_000).optional(),
      /**
       * Shared prefixes (shared/runs/workload/prefix-groups.ts): each request starts with one of
       * `groups` generated prefixes of `prefixLen` tokens, then its own `inputLen`-token suffix; the
       * expected prefix-cache hit ratio is printed before the run.
       */
      prefixGroups: z
        .object({ groups: int1.max(100_000), prefixLen: int1.max(1_000_000) })
        .strict()
        .optional(),
      /**
       * A unique random prefix per request (not from the seed: unique across runs too), so that no
       * two requests, in this run or an earlier one, share a cached block.
       */
      cacheBust: z.boolean().optional(),
      force: ForceOutput.default('ignore_eos'),
    })
    .strict()
    .refine((s) => !(s.cacheBust && s.prefixGroups), {
      message: 'cacheBust and prefixGroups exclude each other (one defeats the other)',
      path: ['cacheBust'],
    }),
  z
    .object({
      type: z.literal('sharegpt'),
      /** ShareGPT JSON; relative paths are relative to the workload file. */
      path: z.string().min(1),
      /** Fixed output length instead of the reply's length (vLLM --sharegpt-output-len). */
      outputLen: tokens.optional(),
      force: ForceOutput.default('none'),
    })
    .strict(),
  z
    .object({
      type: z.literal('jsonl'),
      /** One prompt per line: a string, {"prompt": …} or {"messages": [...]}; optional "output_len". */
      path: z.string().min(1),
      /** Output length when a line sets none (else the server's default). */
      outputLen: LengthDist.optional(),
      shuffle: z.boolean().default(false),
      force: ForceOutput.default('none'),
    })
    .strict(),
  z
    .object({
      type: z.literal('tools'),
      /**
       * A tools dataset (JSONL, docs/load.md "Tool calls and agentic loops"): one
       * {"prompt", "tools", "tool_choice"?, "output_len"?} per line; absent: the built-in one
       * (shared/runs/workload/tool-dataset.ts). Relative to the workload file.
       */
      path: z.string().min(1).optional(),
      /** Output length when a line sets none (else the server's default). */
      outputLen: LengthDist.optional(),
      force: ForceOutput.default('none'),
    })
    .strict(),
  z
    .object({
      type: z.literal('trace'),
      /** A Mooncake JSONL or BurstGPT CSV trace (shared/runs/workload/trace-parse.ts); relative to the workload file. */
      path: z.string().min(1),
      format: z.enum(['auto', 'mooncake', 'burstgpt']).default('auto'),
      /** The trace's gaps are divided by this: 2 replays it twice as fast. */
      speedup: z.number().positive().max(1_000_000).default(1),
      /** Replay only the rows whose trace time (s, the trace's own clock) is in [startS, endS). */
      startS: z.number().min(0).optional(),
      endS: z.number().positive().optional(),
      /** Tokens per hash id (Mooncake's traces: 512). */
      blockTokens: int1.max(65_536).default(512),
      /** Flag the replay when its send lag p99 (actual − planned send) exceeds this, ms. */
      maxLagMs: z.number().min(0).max(L.timerMs).default(10),
      /** The trace's output lengths are what the server produced: forced by default. */
      force: ForceOutput.default('ignore_eos'),
    })
    .strict()
    .refine((t) => t.startS === undefined || t.endS === undefined || t.startS < t.endS, {
      message: 'startS must be < endS',
      path: ['endS'],
    }),
]);
export type PromptSource = z.output<typeof PromptSource>;

/** Think time between a turn's answer and the next turn, ms. A bare number means fixed. */
export const ThinkTime = z.preprocess(
  (v) => (typeof v === 'number' ? { type: 'fixed', ms: v } : v),
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('fixed'), ms: z.number().min(0).max(L.timerMs) }).strict(),
    z
      .object({
        type: z.literal('uniform'),
        minMs: z.number().min(0).max(L.timerMs),
        maxMs: z.number().min(0).max(L.timerMs),
      })
      .strict()
      .refine((d) => d.minMs <= d.maxMs, { message: 'minMs must be ≤ maxMs', path: ['maxMs'] }),
    /** Memoryless pauses (a user who may answer at once or after a while), mean `meanMs`. */
    z.object({ type: z.literal('exponential'), meanMs: z.number().min(0).max(L.timerMs) }).strict(),
  ]),
);
export type ThinkTime = z.output<typeof ThinkTime>;

const turnCount = int1.max(L.turns, `at most ${L.turns} turns`);

/**
 * Multi-turn sessions (docs/load.md "Multi-turn sessions"): each of `requests` is a conversation, not a
 * request. Turn k sends turns 1..k−1 (user messages and the answers actually streamed) plus a new
 * user message, `thinkTimeMs` after turn k−1's answer ended. `maxConcurrency` counts conversations
 * in flight (one holds its slot through its think times), `rate` is conversations started per
 * second. Synthetic prompts: `turns` per conversation, inputLen/outputLen per turn (firstInputLen
 * for turn 1 when set); a ShareGPT
 * file: each conversation's human turns (at most `turns`' largest value).
 */
export const Sessions = z
  .object({
    turns: z
      .preprocess(
        (v) => (typeof v === 'number' ? { type: 'fixed', value: v } : v),
        z.discriminatedUnion('type', [
          z.object({ type: z.literal('fixed'), value: turnCount }).strict(),
          z
            .object({ type: z.literal('uniform'), min: turnCount, max: turnCount })
            .strict()
            .refine((d) => d.min <= d.max, { message: 'min must be ≤ max', path: ['max'] }),
        ]),
      )
      .default({ type: 'fixed', value: 4 }),
    thinkTimeMs: ThinkTime.default({ type: 'fixed', ms: 0 }),
    /**
     * Synthetic prompts: the first user message's length (a pasted document, a long question),
     * where later turns use inputLen; default inputLen for every turn.
     */
    firstInputLen: LengthDist.optional(),
  })
  .strict();
export type Sessions = z.output<typeof Sessions>;

const SECRET_MESSAGE =
  "API keys are not stored in workload files: use --api-key, TOKENSCOPE_API_KEY or the app's key store.";

export const WorkloadTarget = z
  .object({
    url: z.string().url(),
    dialect: z.enum(DIALECT_IDS).default('openai-chat'),
    model: z.string().min(1).optional(),
    headers: z
      .record(z.string(), z.string())
      // Neither key header (Bearer, or Anthropic's x-api-key) belongs in a file users share.
      .refine((h) => !Object.keys(h).some((k) => ['authorization', 'x-api-key'].includes(k.toLowerCase())), {
        message: SECRET_MESSAGE,
      })
      .optional(),
    insecureTls: z.boolean().optional(),
    apiKey: z.never({ error: SECRET_MESSAGE }).optional(),
  })
  .strict();
export type WorkloadTarget = z.output<typeof WorkloadTarget>;

const Sampling = z
  .object({
    temperature: z.number().min(0).optional(),
    topP: z.number().min(0).max(1).optional(),
    /** Per-request sampling seed sent to the server (not the workload's seed). */
    seed: z.number().int().optional(),
    stop: z.array(z.string().max(1000)).max(64).optional(),
    /** Overrides the source's output length for every request. */
    maxTokens: tokens.optional(),
  })
  .strict();

export const Slo = z
  .object({
    ttftMs: z.number().min(0).optional(),
    tpotMs: z.number().min(0).optional(),
    e2elMs: z.number().min(0).optional(),
  })
  .strict();
export type Slo = z.output<typeof Slo>;

export const WorkloadSchema = z
  .object({
    version: z.literal(1).default(1),
    name: z.string().max(200).optional(),
    target: WorkloadTarget.optional(),
    /** Number of measured requests. With durationS too, the run stops at whichever comes first. */
    requests: int1.max(L.requests).optional(),
    /** Stop issuing new requests after this many seconds; in-flight ones finish. */
    durationS: z.number().positive().max(L.durationS).optional(),
    /** Client-side limit on requests in flight (vLLM --max-concurrency); null = none. */
    maxConcurrency: int1.max(L.concurrency).nullable().default(null),
    /** Requests per second, or "inf" (vLLM's default: all at once). */
    rate: z.union([z.number().positive().max(L.rate), z.literal('inf')]).default('inf'),
    /** Default: poisson when burstiness is 1, else gamma. */
    arrival: z.enum(['constant', 'poisson', 'gamma']).optional(),
    /** Gamma shape (vLLM --burstiness): 1 = Poisson, < 1 burstier, > 1 more regular. */
    burstiness: z.number().positive().max(1000).default(1),
    rampUp: z
      .object({ startRate: z.number().min(0).max(L.rate), durationS: z.number().positive().max(L.durationS) })
      .strict()
      .optional(),
    /** vLLM rescales a finite schedule so the last arrival is at N/rate. */
    normalizeSchedule: z.boolean().default(true),
    /**
     * Empty the server's prefix cache before the run, each repeat and each sweep step (vLLM: `POST
     * /reset_prefix_cache`, served with VLLM_SERVER_DEV_MODE=1; SGLang: `/flush_cache`), so that no
     * earlier run warms this one; what was done is recorded in the run file's header.
     */
    resetPrefixCache: z.boolean().optional(),
    /** Requests sent (at max concurrency, no rate) before the measured run; excluded from results. */
    warmup: z.number().int().min(0).max(L.warmup).default(0),
    /**
     * Before anything is measured, send one request (vLLM's initial single-prompt test) and stop
     * with its error if it fails: a wrong model, URL, key or dialect ends the run before it starts.
     */
    testRequest: z.boolean().default(true),
    seed: z.number().int().default(0),
    prompts: PromptSource.default({
      type: 'synthetic',
      inputLen: { type: 'fixed', value: 128 },
      outputLen: { type: 'fixed', value: 128 },
      force: 'ignore_eos',
    }),
    sampling: Sampling.default({}),
    /** Merged last into every request body. */
    extraBody: z.record(z.string(), z.unknown()).optional(),
    includeUsage: z.boolean().default(true),
    /** vLLM: exact tokens per event (stream_options.continuous_usage_stats). */
    continuousUsage: z.boolean().default(false),
    /** Whole-request timeout. At most 2^31 − 1 ms (a timer given more fires at once). */
    timeoutMs: z.number().int().min(100).max(L.timerMs).default(300_000),
    /**
     * Fail a request when no byte arrives for this long (a server that accepted and went silent);
     * 0 = never. Default 60 s.
     */
    idleTimeoutMs: z.number().int().min(0).max(L.timerMs).default(60_000),
    /**
     * keep-alive: pooled connections reused across requests (a reused connection the server had
     * closed is retried once on a new one); close: a new connection per request.
     */
    connection: z.enum(['keep-alive', 'close']).default('keep-alive'),
    /** Goodput SLOs (vLLM --goodput ttft:… tpot:… e2el:…), milliseconds. */
    slo: Slo.optional(),
    /** Keep every response's text in the run file (large). */
    saveText: z.boolean().default(false),
    /**
     * Send a W3C `traceparent` and an `x-request-id` with every request (absent: on), so a server
     * that traces joins its spans to them (docs/tracing.md). `--no-trace-headers` turns it off.
     */
    traceHeaders: z.boolean().optional(),
    /** Multi-turn conversations instead of single requests (see `Sessions`). */
    sessions: Sessions.optional(),
    /** Images in every request (shared/runs/workload/images.ts; docs/load.md "Images in prompts"). */
    images: ImagesSpec.optional(),
    /**
     * A model mix (models.ts): each request goes to one of these model names (models or LoRA
     * adapters), drawn by weight from the seed; the target's model is then not sent.
     */
    models: ModelMix.optional(),
    /** Embeddings and rerank: batch size, documents per query (pooling.ts). */
    pooling: PoolingWorkload.optional(),
    /** Tool definitions, tool_choice and agentic sessions (tools.ts). */
    tools: ToolsWorkload.optional(),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (
      w.sessions &&
      (w.prompts.type === 'jsonl' || w.prompts.type === 'trace' || w.prompts.type === 'tools')
    )
      ctx.addIssue({
        code: 'custom',
        path: ['sessions'],
        message:
          'sessions take synthetic prompts or a ShareGPT file (whole conversations), not JSONL or a trace',
      });
    if (w.images && w.sessions)
      ctx.addIssue({
        code: 'custom',
        path: ['images'],
        message: 'images are sent with single requests, not sessions',
      });
    if (w.images && w.target && !(IMAGE_DIALECTS as readonly string[]).includes(w.target.dialect))
      ctx.addIssue({
        code: 'custom',
        path: ['images'],
        message: `the ${w.target.dialect} dialect carries no images; use ${IMAGE_DIALECTS.join(' or ')}`,
      });
    if (w.tools?.agentic && w.sessions)
      ctx.addIssue({
        code: 'custom',
        path: ['tools', 'agentic'],
        message: 'agentic sessions and multi-turn sessions exclude each other',
      });
    if (w.tools?.agentic && w.images)
      ctx.addIssue({
        code: 'custom',
        path: ['images'],
        message: 'images are sent with single requests, not agentic sessions',
      });
    if (w.tools?.agentic && w.prompts.type === 'trace')
      ctx.addIssue({
        code: 'custom',
        path: ['tools', 'agentic'],
        message: 'agentic sessions do not replay a trace',
      });
    if (w.prompts.type === 'trace') traceRules(w, ctx);
    else if (w.requests === undefined && w.durationS === undefined)
      ctx.addIssue({ code: 'custom', path: ['requests'], message: 'set requests, durationS or both' });
    if (w.arrival === 'poisson' && w.burstiness !== 1)
      ctx.addIssue({
        code: 'custom',
        path: ['burstiness'],
        message: 'poisson means burstiness 1; use arrival "gamma"',
      });
    if (w.rampUp && w.rate === 'inf')
      ctx.addIssue({ code: 'custom', path: ['rampUp'], message: 'a ramp-up needs a finite target rate' });
    if (
      w.durationS !== undefined &&
      w.requests === undefined &&
      w.rate === 'inf' &&
      w.maxConcurrency === null &&
      w.prompts.type !== 'trace'
    )
      ctx.addIssue({
        code: 'custom',
        path: ['maxConcurrency'],
        message: 'a duration run at rate "inf" needs maxConcurrency',
      });
  });

export type Workload = z.output<typeof WorkloadSchema>;

/** A trace sets the arrival times: no rate, process or ramp of its own (`requests` limits it). */
function traceRules(
  w: Pick<Workload, 'rate' | 'arrival' | 'rampUp' | 'burstiness'>,
  ctx: z.RefinementCtx,
): void {
  const msg =
    'a trace replay takes its arrival times from the trace (speed it up with prompts.speedup, --speedup)';
  if (w.rate !== 'inf') ctx.addIssue({ code: 'custom', path: ['rate'], message: msg });
  if (w.arrival !== undefined) ctx.addIssue({ code: 'custom', path: ['arrival'], message: msg });
  if (w.rampUp) ctx.addIssue({ code: 'custom', path: ['rampUp'], message: msg });
  if (w.burstiness !== 1) ctx.addIssue({ code: 'custom', path: ['burstiness'], message: msg });
}
/** @internal exported for its tests */
export type WorkloadInput = z.input<typeof WorkloadSchema>;

export interface WorkloadIssue {
  /** Dotted path with [i] for indexes, e.g. "prompts.inputLen.max"; "" for the root. */
  path: string;
  message: string;
}

function formatPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s === '' ? String(p) : `.${String(p)}`;
  return s;
}

export function parseWorkload(data: unknown): Result<Workload, WorkloadIssue[]> {
  const r = WorkloadSchema.safeParse(data);
  if (r.success) return ok(r.data);
  return fail(r.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })));
}

/** The process a workload asks for (vLLM: burstiness 1 → Poisson, else gamma). */
export function arrivalProcessOf(w: Workload): 'constant' | 'poisson' | 'gamma' {
  return w.arrival ?? (w.burstiness === 1 ? 'poisson' : 'gamma');
}

export function rateOf(w: Workload): number {
  return w.rate === 'inf' ? Infinity : w.rate;
}
