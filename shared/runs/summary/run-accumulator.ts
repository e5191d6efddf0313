/**
 * A run's summary gathered line by line: everything the summary needs from a request line, kept as
 * the line arrives, so a running load test can drop each line once it is in the run file. Live
 * memory per finished request is its outcome with its lists as Float64Arrays (8 B a value; lists
 * with the same values — ITL per token at one token a chunk, Tokenscope's and vLLM's gaps without
 * coalescing, two presets' outcomes of one line — kept once) and a few scalars, not the line's
 * events as JS arrays and not its record.
 *
 * The one implementation: `summarizeRunLines` (summarize-run.ts) is this accumulator fed every
 * line, so the runner's incremental summary and a reopened file's are the same computation in the
 * same order (run-accumulator.test.ts holds them equal to the line-array path number by number).
 */
import {
  finishedMs,
  isCancelledLine,
  outcomeOfLine,
  type RequestOutcome,
  type TokenSpread,
  type Values,
} from './outcome.ts';
import type { RunHeader, RunRequestLine } from '../file/line-schema.ts';
import type { RunSummary } from './schema.ts';
import type { SelfCheck } from './self-check-schema.ts';
import { computeRunSummary } from './summary.ts';
import { isNonStreamingDialect } from '../../dialects.ts';
import { byTurnOf } from './by-turn.ts';
import { byModelOf } from './by-model.ts';
import { outcomeUnder, type DefinitionsId } from './definitions.ts';
import type { Workload } from '../workload/workload.ts';
import { lagOfLine, replaySummaryOfLags } from './replay-lag.ts';
import { serverPhasesSummaryOf, type PhaseLine } from '../../tracing/phase-summary.ts';
import { prefixCacheOf } from './prefix-cache.ts';
import { UploadAccumulator } from './upload.ts';
import { ToolTally } from './tool-calls.ts';
import { expectedHits, type ExpectedHits } from '../workload/prefix-groups.ts';
import type { RequestStats } from '../../stats/request-stats.ts';

export interface SummarizeRunOptions {
  /** Measured duration, s. Default (partial files): from the first dispatch (0) to the last finish seen. */
  durationS?: number;
  partial?: boolean;
  cancelled?: boolean;
  selfCheck?: SelfCheck | null;
  /** Re-derive under another preset's per-request rules (definitions.ts); default Tokenscope's. */
  definitions?: DefinitionsId;
  /** Spans were joined and client and server share a clock (the spans line's sharedClock). */
  sharedClock?: boolean;
}

/**
 * One line's lists, kept once: a list with the same values as one already kept for this line is
 * that Float64Array. Share one between the accumulators (presets) that take the same line.
 */
export class LineValues {
  private readonly kept: Float64Array[] = [];

  keep(v: Values): Float64Array {
    for (const k of this.kept) if (sameValues(k, v)) return k;
    const a = v instanceof Float64Array ? v : Float64Array.from(v);
    this.kept.push(a);
    return a;
  }

  /**
   * `v` as a few leading values and then the gaps of a times list already kept for this line (vLLM's
   * ITL: its first `choices` chunk, the role chunk, is a time the content times lack), or null.
   */
  ledGaps(v: Values): Led | null {
    for (const of of this.kept) {
      const lead = v.length - (of.length - 1);
      if (of.length < 2 || lead < 1 || lead > MAX_LEAD) continue;
      let same = true;
      for (let i = 1; i < of.length && same; i++) same = Object.is(v[lead + i - 1], of[i]! - of[i - 1]!);
      if (same) return { lead: Float64Array.from({ length: lead }, (_, i) => v[i]!), of };
    }
    return null;
  }
}

/** Leading values a led list may have (vLLM: the role chunk's one gap). */
const MAX_LEAD = 4;

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  // Object.is: the same doubles, so -0 and NaN are kept as they came.
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/**
 * A list as kept: its values, or where it is another list's values or follows from them, a tag —
 * 'gaps': the differences of consecutive content times (request-stats.ts takes them so), 'chunk':
 * the chunk gaps again (one token a chunk), 'same': the list it is measured against (no coalesced
 * gap) — or an edit of the list it is measured against (Edited), or leading values before the gaps
 * of the line's content times (Led).
 */
type Kept = Float64Array | 'gaps' | 'chunk' | 'same' | 'measured' | Edited | Led | null;

/**
 * A measured list as the list it is measured against with some positions left out (`drop`: the
 * coalesced gaps, or the first read's events that have no measured gap) and, after that, a few
 * values replaced (`at`, `val`: a coalesced read's gap spread over its tokens).
 */
interface Edited {
  drop: Uint32Array;
  at: Uint32Array | null;
  val: Float64Array | null;
}

/** Leading values, then the gaps of `of` (a kept times list of the same line). */
interface Led {
  lead: Float64Array;
  of: Float64Array;
}

const NO_POSITIONS = new Uint32Array(0);

/** `v` as `of` with some positions left out: those positions (null: it is not). */
function droppedFrom(of: ArrayLike<number>, v: ArrayLike<number>): Edited | null {
  if (v.length >= of.length) return null;
  const drop: number[] = [];
  let j = 0;
  for (let i = 0; i < of.length; i++) {
    if (j < v.length && Object.is(of[i], v[j])) j++;
    else drop.push(i);
  }
  return j === v.length && drop.length === of.length - v.length
    ? { drop: Uint32Array.from(drop), at: null, val: null }
    : null;
}

/**
 * `v` as `of` without its first `of.length − v.length` values and with some values replaced (12 B a
 * replaced value, against 8 B a value for the list itself: at most half of them), or null.
 */
function patchedFrom(of: ArrayLike<number>, v: ArrayLike<number>): Edited | null {
  const skip = of.length - v.length;
  if (skip < 0) return null;
  const at: number[] = [];
  const val: number[] = [];
  const most = v.length >> 1;
  for (let j = 0; j < v.length; j++) {
    if (Object.is(of[skip + j], v[j])) continue;
    if (at.length === most) return null;
    at.push(j);
    val.push(v[j]!);
  }
  return {
    drop: skip ? Uint32Array.from({ length: skip }, (_, i) => i) : NO_POSITIONS,
    at: Uint32Array.from(at),
    val: Float64Array.from(val),
  };
}

/*
 * The lists built again for a summary are JS arrays of doubles, not Float64Arrays: they live one
 * outcome at a time and die young in the JS heap, where a typed array's bytes would be a malloc
 * each that only a collection frees (the run's end grew the C heap by 36 MB so).
 */

function edited(of: ArrayLike<number>, d: Edited): number[] {
  const out: number[] = [];
  let k = 0;
  for (let i = 0; i < of.length; i++) {
    if (k < d.drop.length && d.drop[k] === i) k++;
    else out.push(of[i]!);
  }
  if (d.at && d.val) for (let i = 0; i < d.at.length; i++) out[d.at[i]!] = d.val[i]!;
  return out;
}

const isLed = (k: Kept | undefined): k is Led => typeof k === 'object' && k !== null && 'lead' in k;

function led(l: Led): number[] {
  const out = Array.from(l.lead);
  for (let i = 1; i < l.of.length; i++) out.push(l.of[i]! - l.of[i - 1]!);
  return out;
}

/**
 * An outcome as the accumulator keeps it: its scalars, its content times, and only those lists
 * that do not follow from them — at 256 tokens a request ~8 B a token instead of six lists.
 */
interface SlimOutcome {
  /** The outcome without its lists. */
  base: Scalars;
  /** Its content events' other fields (`exact`), when it has content events. */
  ce: Omit<NonNullable<RequestOutcome['contentEvents']>, 't' | 'tok'> | null;
  ct: Float64Array | null;
  /** The content events' tokens: kept, or spread (the first event's, then w each: outcome.ts). */
  tok: Float64Array | TokenSpread | null;
  chunk: Kept;
  token: Kept;
  chunkMeasured: Kept | undefined;
  tokenMeasured: Kept | undefined;
}

const NONE = new Float64Array(0);

/** An outcome's lists: built again from what is kept (class Lists), one outcome at a time. */
const LISTS = [
  'itlChunkMs',
  'itlTokenMs',
  'itlChunkMeasuredMs',
  'itlTokenMeasuredMs',
  'contentEvents',
] as const;
type Scalars = Omit<RequestOutcome, (typeof LISTS)[number]>;

function gapsOf(ct: ArrayLike<number>): number[] {
  const g: number[] = [];
  for (let i = 1; i < ct.length; i++) g.push(ct[i]! - ct[i - 1]!);
  return g;
}

function spreadOf(tok: Values): TokenSpread | null {
  if (tok.length === 0) return null;
  const w = tok.length > 1 ? tok[1]! : 0;
  for (let i = 2; i < tok.length; i++) if (!Object.is(tok[i], w)) return null;
  return { first: tok[0]!, w };
}

/** The outcome kept slim: each list checked against what it would follow from, value by value. */
function slimOutcome(o: RequestOutcome, lv: LineValues = new LineValues()): SlimOutcome {
  const ce = o.contentEvents;
  const ct = ce ? lv.keep(ce.t) : null;
  const spread = ce ? ('w' in ce.tok ? ce.tok : spreadOf(ce.tok)) : null;
  const tok = ce ? (spread ?? lv.keep(ce.tok as Values)) : null;
  const gaps = ct ? gapsOf(ct) : null;
  const keep = (
    v: Values | null | undefined,
    ...like: [Exclude<Kept, null | Float64Array | Edited | Led>, Values | null | undefined][]
  ): Kept | undefined => {
    if (v === undefined) return undefined;
    if (v === null) return null;
    for (const [tag, other] of like) if (other && sameValues(other, v)) return tag;
    // Tokenscope's measured lists leave coalesced gaps out, or spread a read's gap over its
    // tokens: kept as the edit of the list they are measured against.
    const base = like.find(([tag]) => tag === 'same')?.[1];
    return (base && (droppedFrom(base, v) ?? patchedFrom(base, v))) || lv.ledGaps(v) || lv.keep(v);
  };
  const chunk = keep(o.itlChunkMs, ['gaps', gaps])!;
  const token = keep(o.itlTokenMs, ['chunk', o.itlChunkMs]) ?? null;
  const {
    itlChunkMs: _chunk,
    itlTokenMs: _token,
    itlChunkMeasuredMs: _chunkMeasured,
    itlTokenMeasuredMs: _tokenMeasured,
    contentEvents: _ce,
    ...base
  } = o;
  const ceRest = ce ? (({ t: _t, tok: _k, ...rest }) => rest)(ce) : null;
  return {
    base,
    ce: ceRest,
    ct,
    tok,
    chunk,
    token,
    chunkMeasured: keep(o.itlChunkMeasuredMs, ['same', o.itlChunkMs]),
    tokenMeasured: keep(o.itlTokenMeasuredMs, ['measured', o.itlChunkMeasuredMs], ['same', o.itlTokenMs]),
  };
}

/**
 * One outcome's lists built again from what is kept, each when first asked for: JS arrays of the
 * same values (the summary reads only elements; see above), the same array however often it is
 * asked. Its content events are a new wrapper each time, around the kept times.
 */
class Lists {
  private chunkL: Values | undefined;
  private tokenL: Values | null | undefined;
  private chunkMeasuredL: Values | undefined;
  private tokenMeasuredL: Values | null | undefined;

  constructor(readonly slim: SlimOutcome) {}

  private resolve(k: Kept, same: () => Values | null): Values | null {
    if (k === null || k instanceof Float64Array) return k;
    if (k === 'chunk') return this.itlChunkMs();
    if (k === 'same') return same();
    if (k === 'measured') return this.itlChunkMeasuredMs() ?? null;
    if (k === 'gaps') return gapsOf(this.slim.ct ?? NONE);
    if (isLed(k)) return led(k);
    return edited(same() ?? NONE, k);
  }

  itlChunkMs(): Values {
    const c = this.slim.chunk;
    return (this.chunkL ??=
      c === 'gaps' ? gapsOf(this.slim.ct ?? NONE) : isLed(c) ? led(c) : (c as Float64Array));
  }

  itlTokenMs(): Values | null {
    if (this.tokenL === undefined) this.tokenL = this.resolve(this.slim.token, () => this.itlChunkMs());
    return this.tokenL;
  }

  itlChunkMeasuredMs(): Values | undefined {
    const k = this.slim.chunkMeasured;
    if (k === undefined) return undefined;
    return (this.chunkMeasuredL ??= this.resolve(k, () => this.itlChunkMs()) ?? NONE);
  }

  itlTokenMeasuredMs(): Values | null | undefined {
    const k = this.slim.tokenMeasured;
    if (k === undefined) return undefined;
    if (this.tokenMeasuredL === undefined) this.tokenMeasuredL = this.resolve(k, () => this.itlTokenMs());
    return this.tokenMeasuredL;
  }

  contentEvents(): RequestOutcome['contentEvents'] {
    const { ce, ct, tok } = this.slim;
    // A spread stays one: the peak reads it as such (outcome.ts tokensAt).
    return ce ? { ...ce, t: ct ?? NONE, tok: tok ?? NONE } : undefined;
  }
}

/**
 * The one outcome whose lists are built (the summary walks the outcomes one by one: gap-pools.ts,
 * peaks.ts). Set only inside `RunAccumulator.summary`, which is synchronous.
 */
let current: Lists | null = null;

function listsOf(s: SlimOutcome): Lists {
  if (current?.slim !== s) current = new Lists(s);
  return current;
}

const SLIM = Symbol('slim');
interface Lazy {
  [SLIM]: SlimOutcome;
}

/**
 * What a lazy outcome inherits: each list as a getter, built when first read after another
 * outcome's. So a summary holds one outcome's lists at a time, not every outcome's (at 4,000 × 256
 * tokens those were ~30 MB at the run's end, on top of the run's peak).
 */
const LAZY: object = Object.create(
  Object.prototype,
  Object.fromEntries(
    LISTS.map((k) => [
      k,
      {
        get(this: Lazy) {
          return listsOf(this[SLIM])[k]();
        },
        enumerable: true,
      },
    ]),
  ),
);

function lazyOutcome(s: SlimOutcome): RequestOutcome {
  const o = Object.assign(Object.create(LAZY) as Lazy, s.base);
  o[SLIM] = s;
  return o as unknown as RequestOutcome;
}

function configOf(w: Workload): RunSummary['config'] {
  return {
    maxConcurrency: w.maxConcurrency,
    requestRate: w.rate,
    burstiness: w.burstiness,
    numPrompts: w.requests ?? null,
  };
}

/** The summary of a run, fed its request lines in file order (warm-up and cancelled ones too). */
export class RunAccumulator {
  private readonly definitions: DefinitionsId;
  private readonly outcomes: SlimOutcome[] = [];
  private readonly turns: (number | undefined)[] = [];
  private anyTurn = false;
  /** Each kept outcome's model (model-mix runs; undefined where the line names none). */
  private readonly models: (string | undefined)[] = [];
  private anyModel = false;
  /** Schedule lag of the measured lines (trace replays only). */
  private readonly lags: number[] | null;
  /** Input tokens by item index of the kept lines (shared prefix groups only). */
  private readonly seqTokens: Map<number, number> | null;
  private seqEnd = 0;
  /** What the server-phase summary reads of the successful measured lines. */
  private readonly phaseLines: PhaseLine[] = [];
  private readonly upload = new UploadAccumulator();
  private readonly tools: ToolTally;
  private lines = 0;
  private measured = 0;
  private endMs = 0;

  constructor(
    private readonly header: RunHeader,
    definitions: DefinitionsId = 'tokenscope',
  ) {
    this.definitions = definitions;
    const w = header.workload;
    this.lags = w.prompts.type === 'trace' ? [] : null;
    this.seqTokens = w.prompts.type === 'synthetic' && w.prompts.prefixGroups ? new Map() : null;
    this.tools = new ToolTally(w.tools?.agentic?.maxSteps ?? null);
  }

  /**
   * One finished request's line; `lv`: the line's lists already kept by another accumulator;
   * `stats`: the line's stats when the caller has them (record-line.ts `recordToLineWithStats`).
   */
  add(line: RunRequestLine, lv: LineValues = new LineValues(), stats?: RequestStats): void {
    this.lines++;
    if (line.warmup) return;
    this.measured++;
    this.endMs = Math.max(this.endMs, finishedMs(line));
    if (this.lags) {
      const lag = lagOfLine(line);
      if (lag !== null) this.lags.push(lag);
    }
    if (line.status === 'ok') this.phaseLines.push(phaseLineOf(line));
    if (isCancelledLine(line)) return;
    this.upload.add(line);
    this.tools.add(line);
    const d = this.definitions;
    const o =
      d !== 'tokenscope'
        ? outcomeUnder(line, d, this.header.target.dialect, stats)
        : outcomeOfLine(line, stats);
    this.outcomes.push(slimOutcome(o, lv));
    this.turns.push(line.turn);
    if (line.turn !== undefined) this.anyTurn = true;
    this.models.push(line.model);
    if (line.model !== undefined) this.anyModel = true;
    if (this.seqTokens) {
      this.seqTokens.set(line.seq, line.inputTokens ?? 0);
      this.seqEnd = Math.max(this.seqEnd, line.seq + 1);
    }
  }

  /** The summary of the lines so far. */
  summary(o: SummarizeRunOptions = {}): RunSummary {
    try {
      return this.summaryOf(this.outcomes.map(lazyOutcome), o);
    } finally {
      current = null;
    }
  }

  private summaryOf(outcomes: RequestOutcome[], o: SummarizeRunOptions): RunSummary {
    const { header } = this;
    const summary = computeRunSummary({
      outcomes,
      definitions: this.definitions,
      durationS: o.durationS ?? this.endMs / 1000,
      slo: header.workload.slo ?? null,
      config: configOf(header.workload),
      partial: o.partial ?? false,
      cancelled: o.cancelled ?? false,
      cancelledRequests: this.measured - outcomes.length,
      warmupRequests: this.lines - this.measured,
      selfCheck: o.selfCheck ?? null,
      nonStreaming: isNonStreamingDialect(header.target.dialect),
    });
    if (this.lags) summary.replay = replaySummaryOfLags(header.workload, this.lags);
    const phases = serverPhasesSummaryOf(this.phaseLines, header.clockZeroWall, o.sharedClock ?? false);
    if (phases) summary.serverPhases = phases;
    const cache = prefixCacheOf(
      outcomes.filter((x) => x.ok),
      this.expected(),
    );
    if (cache) summary.prefixCache = cache;
    const upload = this.upload.summary();
    if (upload) summary.upload = upload;
    const tools = this.tools.summary();
    if (tools) summary.tools = tools;
    const byTurn = this.anyTurn ? byTurnOf(outcomes, this.turns) : undefined;
    const byModel = this.anyModel
      ? byModelOf({
          outcomes,
          models: this.models,
          durationS: summary.vllm.duration,
          config: summary.config,
          definitions: this.definitions,
          order: header.workload.models?.map((m) => m.name),
        })
      : undefined;
    return { ...summary, ...(byTurn ? { byTurn } : {}), ...(byModel ? { byModel } : {}) };
  }

  /**
   * Bytes of the lists kept for the outcomes so far, each list once however many hold it (`seen`:
   * lists already counted, another accumulator's of the same lines).
   * @internal exported for its tests
   */
  keptBytes(seen = new Set<ArrayBufferView>()): number {
    const before = new Set(seen);
    const add = (k: unknown): void => {
      if (ArrayBuffer.isView(k)) seen.add(k);
      else if (typeof k === 'object' && k !== null)
        for (const v of Object.values(k as Record<string, unknown>)) if (ArrayBuffer.isView(v)) seen.add(v);
    };
    for (const o of this.outcomes)
      for (const k of [o.ct, o.tok, o.chunk, o.token, o.chunkMeasured, o.tokenMeasured]) add(k);
    let n = 0;
    for (const v of seen) if (!before.has(v)) n += v.byteLength;
    return n;
  }

  /** The hits a prefix-groups workload should give over the requests the run measured (by item index). */
  private expected(): ExpectedHits | null {
    const w = this.header.workload;
    const src = w.prompts;
    const tokens = this.seqTokens;
    if (src.type !== 'synthetic' || !src.prefixGroups || !tokens || this.outcomes.length === 0) return null;
    return expectedHits(src.prefixGroups, w.seed, this.seqEnd, (i) => tokens.get(i) ?? 0);
  }
}

/** The fields of a line the server-phase summary reads (spans joined onto it), and no events. */
function phaseLineOf(l: RunRequestLine): PhaseLine {
  return {
    warmup: l.warmup,
    status: l.status,
    ttftMs: l.ttftMs,
    ...(l.sentMs !== undefined ? { sentMs: l.sentMs } : {}),
    ...(l.server !== undefined ? { server: l.server } : {}),
  };
}
