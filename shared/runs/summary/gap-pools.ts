/**
 * The run's pooled gap lists (summary.ts): every chunk gap of every successful request in one list,
 * vLLM's ITL, and Tokenscope's lists beside it (coalesced gaps left out, per token). A run of
 * 4,000 × 256 tokens has a million gaps a list, so a pool is built only when its statistics are
 * asked for, into one typed array sized up front for the longest, sorted in place there: the summary
 * holds one buffer (8 MB here), not four pools and a sorted copy of each (they raised a run's end
 * by ~60 MB). A list that is another (one token a chunk, no coalesced
 * gap: the usual run) is pooled and sorted once.
 */
import { summarizeInPlace, type Summary } from '../../stats/summary.ts';
import type { RequestOutcome, Values } from './outcome.ts';

/** Which of a request's gap lists a pool gathers. */
export type GapList = 'chunk' | 'own' | 'token' | 'tokenAll';

function listOf(o: RequestOutcome, kind: GapList): Values | null {
  switch (kind) {
    case 'chunk':
      return o.itlChunkMs;
    case 'own':
      return o.itlChunkMeasuredMs ?? o.itlChunkMs;
    case 'token':
      return o.itlTokenMeasuredMs ?? o.itlTokenMs;
    case 'tokenAll':
      return o.itlTokenMs ?? o.itlTokenMeasuredMs ?? null;
  }
}

/** `from`'s values into `to` at `at`; the position after them. */
function copyInto(to: Float64Array, at: number, from: Values): number {
  if (from instanceof Float64Array) to.set(from, at);
  else for (let i = 0; i < from.length; i++) to[at + i] = from[i]!;
  return at + from.length;
}

/**
 * The last pool buffer, while it lives: the next summary (a run's own, then the one re-derived under
 * vLLM's rules, back to back) fills it again instead of allocating another 8 MB beside it before a
 * collection frees the first. Safe to share: a pool is built, sorted and summarized inside one
 * `stats` call, and nothing keeps a view of it.
 */
let spare: WeakRef<Float64Array> | null = null;

export class GapPools {
  /** A list that is, in every request, the very same list as another: pooled as that one. */
  private readonly alias = new Map<GapList, GapList>();
  private readonly lengths = new Map<GapList, number>();
  private readonly done = new Map<GapList, Summary | null>();
  private scratch: Float64Array | null = null;
  /** Some request has per-token gaps. */
  readonly anyToken: boolean;

  constructor(private readonly ok: readonly RequestOutcome[]) {
    let own = true;
    let tokChunk = true;
    let tokOwn = true;
    let tokAllTok = true;
    let anyToken = false;
    const n = { chunk: 0, own: 0, token: 0, tokenAll: 0 };
    for (const o of ok) {
      const c = o.itlChunkMs;
      const m = listOf(o, 'own')!;
      const t = listOf(o, 'token');
      n.chunk += c.length;
      n.own += m.length;
      own &&= m === c;
      tokChunk &&= t === c;
      tokOwn &&= t === m;
      if (!t) continue;
      anyToken = true;
      const ta = listOf(o, 'tokenAll')!;
      n.token += t.length;
      n.tokenAll += ta.length;
      tokAllTok &&= ta === t;
    }
    this.anyToken = anyToken;
    for (const k of Object.keys(n) as GapList[]) this.lengths.set(k, n[k]);
    if (own) this.alias.set('own', 'chunk');
    if (tokChunk) this.alias.set('token', 'chunk');
    else if (tokOwn) this.alias.set('token', this.resolve('own'));
    if (tokAllTok) this.alias.set('tokenAll', this.resolve('token'));
  }

  private resolve(kind: GapList): GapList {
    return this.alias.get(kind) ?? kind;
  }

  /** The two lists are one in every request, or hold the same values in the same order. */
  same(a: GapList, b: GapList): boolean {
    const ka = this.resolve(a);
    const kb = this.resolve(b);
    if (ka === kb) return true;
    if (this.lengths.get(ka) !== this.lengths.get(kb)) return false;
    // Walked as the two concatenations, without building either.
    const la: Values[] = [];
    const lb: Values[] = [];
    for (const o of this.ok) {
      const x = listOf(o, ka);
      const y = listOf(o, kb);
      if (x && x.length) la.push(x);
      if (y && y.length) lb.push(y);
    }
    let i = 0;
    let j = 0;
    let bi = 0;
    let bj = 0;
    while (bi < la.length && bj < lb.length) {
      const x = la[bi]!;
      const y = lb[bj]!;
      if (x[i] !== y[j]) return false;
      if (++i === x.length) {
        i = 0;
        bi++;
      }
      if (++j === y.length) {
        j = 0;
        bj++;
      }
    }
    return true;
  }

  length(kind: GapList): number {
    return this.lengths.get(this.resolve(kind))!;
  }

  /** The pooled list's statistics (null when empty): built, sorted in place, dropped. */
  stats(kind: GapList): Summary | null {
    const k = this.resolve(kind);
    if (this.done.has(k)) return this.done.get(k)!;
    // One buffer for every pool of this run (each fills the front of it, sorted there and done
    // with before the next): pools let go one by one still piled up until a GC came.
    const n = this.lengths.get(k)!;
    if (!this.scratch) {
      const need = Math.max(...this.lengths.values());
      const old = spare?.deref();
      this.scratch = old && old.length >= need ? old : new Float64Array(need);
      spare = new WeakRef(this.scratch);
    }
    const pool = this.scratch.subarray(0, n);
    let at = 0;
    for (const o of this.ok) {
      const l = listOf(o, k);
      if (l) at = copyInto(pool, at, l);
    }
    const s = summarizeInPlace(pool);
    this.done.set(k, s);
    return s;
  }
}
