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
