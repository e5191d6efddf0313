// The hand-written HTTP/1.1 response parser of the stream-I/O thread: any response split into
// reads anywhere gives back exactly its body, each read yielding exactly the body bytes it
// carried (the "one read, one stamp" rule depends on it), and malformed input is an error, never
// a throw or a wrong body.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Http1ResponseParser, MAX_HEADER_BYTES, parseHead, type ParseOut } from './http1.ts';

interface Piece {
  /** Wire bytes of this piece. */
  wire: Buffer;
  /** How many of them are body bytes (chunk data), the rest framing. */
  body: Buffer;
}

/** A chunked response as pieces, so the test knows which wire bytes are body. */
function chunkedPieces(
  head: string,
  chunks: Buffer[],
  o: { ext: boolean; lfOnly: boolean; trailer: boolean },
): Piece[] {
  const nl = o.lfOnly ? '\n' : '\r\n';
  const pieces: Piece[] = [{ wire: Buffer.from(head), body: Buffer.alloc(0) }];
  for (const c of chunks) {
    if (c.length === 0) continue;
    pieces.push({
      wire: Buffer.from(`${c.length.toString(16)}${o.ext ? ';x=1' : ''}${nl}`),
      body: Buffer.alloc(0),
    });
    pieces.push({ wire: c, body: c });
    pieces.push({ wire: Buffer.from(nl), body: Buffer.alloc(0) });
  }
  pieces.push({
    wire: Buffer.from(`0${nl}${o.trailer ? `X-Trailer: 1${nl}` : ''}${nl}`),
    body: Buffer.alloc(0),
  });
  return pieces;
}

/** Feeds `wire` to a parser split at `cuts`; returns the body per read and the parser. */
function feed(wire: Buffer, cuts: number[]): { perRead: Buffer[]; p: Http1ResponseParser; used: number[] } {
  const p = new Http1ResponseParser();
  const out: ParseOut = { headEnded: false, body: 0, used: 0 };
  const bounds = [...new Set([0, ...cuts.filter((c) => c > 0 && c < wire.length), wire.length])].sort(
    (a, b) => a - b,
  );
  const perRead: Buffer[] = [];
  const used: number[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    // The read lands in a buffer that the parser rewrites in place (as the socket's onread buffer).
    const buf = Buffer.alloc(bounds[k + 1]! - bounds[k]! + 7, 0xee);
    wire.copy(buf, 3, bounds[k]!, bounds[k + 1]!);
    p.push(buf, 3, 3 + bounds[k + 1]! - bounds[k]!, out);
    perRead.push(Buffer.from(buf.subarray(3, 3 + out.body)));
    used.push(out.used - 3);
  }
  return { perRead, p, used };
}

const HEAD =
  'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nx-request-id: r-1\r\ntransfer-encoding: chunked\r\n\r\n';

describe('Http1ResponseParser', () => {
  it('any chunked response, split anywhere: the body comes back whole, each read with exactly its own bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 300 }), { maxLength: 12 }),
        fc.array(fc.nat(4000), { maxLength: 20 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (raw, cuts, ext, lfOnly, trailer) => {
          const chunks = raw.map((u) => Buffer.from(u));
          const pieces = chunkedPieces(HEAD, chunks, { ext, lfOnly, trailer });
          const wire = Buffer.concat(pieces.map((x) => x.wire));
          const { perRead, p } = feed(wire, cuts);
          expect(p.error).toBeNull();
          expect(p.done).toBe(true);
          expect(Buffer.concat(perRead).equals(Buffer.concat(chunks))).toBe(true);
          // Per read: the body bytes inside that read's wire range, no more, no less.
          const bounds = [...new Set([0, ...cuts.filter((c) => c > 0 && c < wire.length), wire.length])].sort(
            (a, b) => a - b,
          );
          let off = 0;
          const isBody = new Uint8Array(wire.length);
          for (const x of pieces) {
            if (x.body.length) isBody.fill(1, off, off + x.wire.length);
            off += x.wire.length;
          }
          for (let k = 0; k + 1 < bounds.length; k++) {
            let n = 0;
            for (let i = bounds[k]!; i < bounds[k + 1]!; i++) n += isBody[i]!;
            expect(perRead[k]!.length).toBe(n);
          }
          expect(p.headInfo).toEqual({
            status: 200,
            contentType: 'text/event-stream',
            requestId: 'r-1',
            location: null,
            retryAfter: null,
            contentEncoding: null,
            keepAlive: true,
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('Content-Length bodies end at their length; bytes after the response are left unconsumed', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2000 }),
        fc.array(fc.nat(2200), { maxLength: 8 }),
        (body, cuts) => {
          const head = `HTTP/1.1 404 Not Found\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n`;
          const wire = Buffer.concat([
            Buffer.from(head),
            Buffer.from(body),
            Buffer.from('HTTP/1.1 200 OK\r\n'),
          ]);
          const { perRead, p } = feed(wire, cuts);
          expect(p.error).toBeNull();
          expect(p.done).toBe(true);
          expect(p.headInfo!.status).toBe(404);
          expect(Buffer.concat(perRead).equals(Buffer.from(body))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a body without length or chunking runs until the connection closes, and the connection is not reused', () => {
    const { perRead, p } = feed(
      Buffer.from('HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: 1\n\ndata: 2\n\n'),
      [40, 60],
    );
    expect(p.error).toBeNull();
    expect(p.done).toBe(false);
    expect(p.closeDelimited).toBe(true);
    expect(Buffer.concat(perRead).toString()).toBe('data: 1\n\ndata: 2\n\n');
    expect(p.headInfo!.keepAlive).toBe(false);
  });

  it('an interim 100 Continue is skipped; the real head follows', () => {
    const { perRead, p } = feed(
      Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'),
      [5, 30],
    );
    expect(p.headInfo!.status).toBe(200);
    expect(Buffer.concat(perRead).toString()).toBe('ok');
  });

  it('keep-alive follows the version and the Connection header', () => {
    const ka = (h: string): boolean => {
      const r = parseHead(h);
      if (typeof r === 'string') throw new Error(r);
      return r.head.keepAlive;
    };
    expect(ka('HTTP/1.1 200 OK\r\nContent-Length: 0')).toBe(true);
    expect(ka('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0')).toBe(false);
    expect(ka('HTTP/1.0 200 OK\r\nContent-Length: 0')).toBe(false);
    expect(ka('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0')).toBe(true);
    // llama.cpp says keep-alive and closes anyway: the header is believed; the retry rule copes.
    expect(
      ka(
        'HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5, max=100\r\nTransfer-Encoding: chunked',
      ),
    ).toBe(true);
  });

  it('malformed input is an error with a reason, never a throw', () => {
    const bad = [
      ['ICY 200 OK\r\n\r\n', /status line/],
      ['HTTP/1.1 200 OK\r\nbroken header\r\n\r\n', /header line/],
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /chunk size/],
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcd\r\n', /longer than its size/],
      ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', /conflicting/],
      ['HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /Content-Length/],
    ] as const;
    for (const [wire, why] of bad) {
      const { p } = feed(Buffer.from(wire), []);
      expect(p.error).toMatch(why);
    }
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.array(fc.nat(600), { maxLength: 6 }),
        (junk, cuts) => {
          expect(() =>
            feed(
              Buffer.concat([
                Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'),
                Buffer.from(junk),
              ]),
              cuts,
            ),
          ).not.toThrow();
          expect(() => feed(Buffer.from(junk), cuts)).not.toThrow();
        },
      ),
    );
  });

  it('headers larger than the limit are refused', () => {
    const big = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`;
    const { p } = feed(Buffer.from(big), [1000, 30_000]);
    expect(p.error).toMatch(/larger than/);
  });
});
