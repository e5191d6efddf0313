/**
 * A request's stamped socket reads that are not framed yet, kept as bytes outside the JS heap,
 * with each read's stamp and index beside them.
 *
 * Why bytes: when many streams are readable at once the measuring thread stamps every read as it
 * arrives and decodes later, in slices (stream-decoder.ts). Text framed on arrival waited in the
 * request's queue until a slice reached it, long enough to survive the young generation: 40 % of
 * what a 1 M-chunk run promoted to old space was that text (BENCHMARKS.md, "memory where it
 * goes"). Bytes wait here instead; a read is decoded to text only when its frames are about to be
 * decoded, and that text dies young.
 *
 * Why pages: the bytes go into fixed-size pages shared by every queue of the thread (a free list),
 * so a request's backlog growing and draining allocates nothing once the pool holds enough pages.
 * A buffer per request that doubled as it grew allocated 470 MB in that run, 120 KB a request,
 * and the process kept the high-water mark of that churn as resident memory.
 *
 * The reads handed in are views of the I/O side's batch buffers, which are reused once the batch
 * is handled, so their bytes are copied. The queue is bounded by the I/O side's per-request
 * backlog (io/backlog.ts): past it, that request's connection is not read.
 */
/** @internal exported for its tests */
export const PAGE_BYTES = 16 * 1024;
/** Each read's header in its page: its stamp (f64), its index and its length (u32 each). */
const HEADER = 16;
/**
 * Free pages kept for reuse (4 MB: a page for each of 256 streams); past that, a page given back is
 * left to the collector. A backlog's peak (700 pages in a 1 M-chunk run) need not stay resident.
 */
const MAX_FREE_PAGES = 256;

/** A page and its views: bytes, and the headers' stamps and numbers. */
interface Page {
  bytes: Uint8Array;
  f64: Float64Array;
  u32: Uint32Array;
  /** Where its last read ends. */
  end: number;
}

const free: Page[] = [];

function takePage(need: number): Page {
  const pooled = need <= PAGE_BYTES ? free.pop() : undefined;
  if (pooled) {
    pooled.end = 0;
    return pooled;
  }
  // A read larger than a page has a page of its own size.
  const buf = new ArrayBuffer(Math.max(PAGE_BYTES, need));
  return { bytes: new Uint8Array(buf), f64: new Float64Array(buf), u32: new Uint32Array(buf), end: 0 };
}

function givePage(p: Page): void {
  if (p.bytes.length === PAGE_BYTES && free.length < MAX_FREE_PAGES) free.push(p);
}

/** Pages in the thread's free list. @internal exported for its tests */
export function freePages(): number {
  return free.length;
}

/**
 * The reads, oldest first, each as a header and its bytes (padded to 8) in the pages. Nothing per
 * read is a JS object: parallel arrays of stamps and lengths grew with the stream and were promoted
 * with it.
 */
export class ReadQueue {
  private pages: Page[] = [];
  /** Where the next read starts in the first page. */
  private pos = 0;
  private waitingReads = 0;
  private waitingBytes = 0;
  /** The stamp and read index of the read `shift()` returned last. */
  t = 0;
  readIndex = 0;

  /** Reads waiting. */
  get count(): number {
    return this.waitingReads;
  }

  /** Bytes waiting. */
  get bytes(): number {
    return this.waitingBytes;
  }

  push(chunk: Uint8Array, t: number, readIndex: number): void {
    const n = chunk.length;
    const need = HEADER + ((n + 7) & ~7);
    let page = this.pages[this.pages.length - 1];
    if (!page || page.end + need > page.bytes.length) {
      page = takePage(need);
      this.pages.push(page);
    }
    const at = page.end;
    page.f64[at >> 3] = t;
    page.u32[(at >> 2) + 2] = readIndex;
    page.u32[(at >> 2) + 3] = n;
    page.bytes.set(chunk, at + HEADER);
    page.end = at + need;
    this.waitingReads++;
    this.waitingBytes += n;
  }

  /**
   * The oldest read's bytes (its stamp in `t`, its index in `readIndex`), or null when none wait.
   * The view is valid until the next `push` or `release` on this queue: read it at once.
   */
  shift(): Uint8Array | null {
    if (this.waitingReads === 0) return null;
    let page = this.pages[0]!;
    if (this.pos >= page.end) {
      givePage(this.pages.shift()!); // spent
      page = this.pages[0]!;
      this.pos = 0;
    }
    const at = this.pos;
    const n = page.u32[(at >> 2) + 3]!;
    this.t = page.f64[at >> 3]!;
    this.readIndex = page.u32[(at >> 2) + 2]!;
    this.pos = at + HEADER + ((n + 7) & ~7);
    this.waitingReads--;
    this.waitingBytes -= n;
    if (this.waitingReads === 0) {
      // Drained: the page is written again from its start by the next push (the view is read by then).
      this.pos = 0;
      page.end = 0;
      if (page.bytes.length !== PAGE_BYTES) this.pages = [];
    }
    return page.bytes.subarray(at + HEADER, at + HEADER + n);
  }

  /** Drops every waiting read; returns how many reads and bytes were dropped. */
  dropAll(): { reads: number; bytes: number } {
    const dropped = { reads: this.waitingReads, bytes: this.waitingBytes };
    this.release();
    return dropped;
  }

  /** Gives every page back to the thread's pool (the request is done with its reads). */
  release(): void {
    for (const p of this.pages) givePage(p);
    this.pages = [];
    this.pos = 0;
    this.waitingReads = 0;
    this.waitingBytes = 0;
  }
}
