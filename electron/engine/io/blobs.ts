/**
 * Large pieces many request bodies share — a workload's images: ~260 KB of base64 each at 256×256,
 * the same 16 in every request — held once on each side of the thread boundary instead of travelling
 * in every body. A body that has them is a list of parts: JSON text and blob ids (image-body.ts).
 * The engine sends a blob's bytes to an I/O thread the first time a request there needs it
 * (io-engine.ts, op 'blob'), and that thread writes each request's parts with its head in one writev.
 *
 * Why: as whole bodies, 500 requests a second moved 131 MB/s of fresh 260-KB buffers through both
 * threads. Each was a new ArrayBuffer on both heaps, and V8 answered the external memory with a
 * scavenge or a mark-compact several times a second on each (the I/O thread spent 2–3 s of a 20-s
 * run in GC, stalls up to 39 ms). Now a request allocates only its JSON text.
 */

/** One piece of a body: text, a blob's id (the measuring side's form), or a blob's bytes (the I/O side's). */
export type BodyPart = string | number | Uint8Array;

const blobs = new Map<number, Buffer>();
let nextBlob = 1;

/** Registers bytes that bodies will share; their id for BodyPart lists. */
export function addBlob(bytes: Buffer): number {
  const id = nextBlob++;
  blobs.set(id, bytes);
  return id;
}

/** Forgets a blob: later bodies cannot name it (threads that hold a copy keep it until they drop it). */
export function dropBlob(id: number): void {
  blobs.delete(id);
}

export function blobOf(id: number): Buffer | undefined {
  return blobs.get(id);
}

/** A body's length in bytes (text as UTF-8), blobs looked up in `lookup`. */
export function partsLength(
  parts: readonly BodyPart[],
  lookup: (id: number) => Uint8Array | undefined = blobOf,
): number {
  let n = 0;
  for (const p of parts)
    n +=
      typeof p === 'string'
        ? Buffer.byteLength(p)
        : typeof p === 'number'
          ? (lookup(p)?.byteLength ?? 0)
          : p.byteLength;
  return n;
}

/** The parts with every blob id replaced by its bytes; a missing blob is a bug, thrown. */
export function resolveParts(
  parts: readonly BodyPart[],
  lookup: (id: number) => Uint8Array | undefined,
): (string | Uint8Array)[] {
  return parts.map((p) => {
    if (typeof p !== 'number') return p;
    const b = lookup(p);
    if (!b) throw new Error(`request body names blob ${p}, which this thread does not hold`);
    return b;
  });
}

/**
 * The text of the bodies handed to a thread together (a window of planned requests, io-engine.ts)
 * written as UTF-8 into one new buffer, each body's text parts replaced by views of it: `bodies`
 * are changed in place; the buffer, to transfer with them, is returned (null: no text). The I/O
 * thread then holds a window's bodies as one block outside its heap and writes the bytes as they
 * are. As strings, 6-KB prompts (prefix groups) at 500 requests a second were 3 MB/s of copies
 * in that thread's 6-MB young generation and again in the text it wrote: twice the scavenges of a
 * plain run, and the schedule lag p99 of the first seconds 3–5 ms over plain.
 */
export function packBodies(bodies: { body: string | BodyPart[] }[]): ArrayBuffer | null {
  let total = 0;
  for (const b of bodies) {
    if (typeof b.body === 'string') total += Buffer.byteLength(b.body);
    else for (const p of b.body) if (typeof p === 'string') total += Buffer.byteLength(p);
  }
  if (total === 0) return null;
  const buf = Buffer.allocUnsafeSlow(total);
  let at = 0;
  const put = (s: string): Uint8Array => {
    const n = buf.write(s, at);
    const view = new Uint8Array(buf.buffer, buf.byteOffset + at, n);
    at += n;
    return view;
  };
  for (const b of bodies) {
    if (typeof b.body === 'string') b.body = b.body.length > 0 ? [put(b.body)] : b.body;
    else b.body = b.body.map((p) => (typeof p === 'string' ? put(p) : p));
  }
  return buf.buffer as ArrayBuffer;
}
