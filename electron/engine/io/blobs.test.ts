/**
 * A window's bodies packed into one buffer (blobs.ts packBodies): the bytes each request writes
 * are its body's UTF-8, byte for byte, and its Content-Length; blob ids stay ids; the buffer
 * survives the move to another thread with every view intact.
 */
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { packBodies, partsLength, type BodyPart } from './blobs.ts';

const bytesOf = (parts: BodyPart[], blob: Uint8Array): Buffer =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'number' ? blob : typeof p === 'string' ? Buffer.from(p) : p)),
  );

describe('packBodies', () => {
  const text = [
    '{"messages":[{"role":"user","content":"a shared prefix of many words ' + 'word '.repeat(1200) + '"}]}',
    '{"prompt":"non-ASCII: żółw, 猫, 🐈 and a \\"quote\\""}',
    '',
  ];

  it('writes every text part as UTF-8 into one buffer; blob ids are left as they are', () => {
    const blob = Buffer.from('BLOB-BYTES');
    const reqs: { body: string | BodyPart[] }[] = [
      { body: text[0]! },
      { body: ['{"image":"', 7, '","text":"', text[1]!, '"}'] },
      { body: text[1]! },
      { body: text[2]! },
    ];
    const before = reqs.map((r) => (typeof r.body === 'string' ? [r.body] : [...r.body]));
    const buf = packBodies(reqs);
    expect(buf).not.toBeNull();
    const expectedTotal = before
      .flat()
      .reduce<number>((n, p) => n + (typeof p === 'string' ? Buffer.byteLength(p) : 0), 0);
    expect(buf!.byteLength).toBe(expectedTotal);
    for (let i = 0; i < reqs.length; i++) {
      const body = reqs[i]!.body;
      if (before[i]!.join('') === '') {
        expect(body).toBe(''); // an empty body stays empty text
        continue;
      }
      expect(Array.isArray(body)).toBe(true);
      const parts = body as BodyPart[];
      for (const p of parts) {
        expect(typeof p).not.toBe('string');
        if (p instanceof Uint8Array) expect(p.buffer).toBe(buf);
      }
      expect(bytesOf(parts, blob)).toEqual(bytesOf(before[i]!, blob));
      // The Content-Length the thread computes from the parts is the body's UTF-8 length.
      expect(partsLength(parts, () => blob)).toBe(bytesOf(before[i]!, blob).length);
    }
    expect((reqs[1]!.body as BodyPart[])[1]).toBe(7);
  });

  it('nothing to pack: null, bodies untouched', () => {
    const reqs = [{ body: '' }, { body: [3] as BodyPart[] }];
    expect(packBodies(reqs)).toBeNull();
    expect(reqs[0]!.body).toBe('');
    expect(reqs[1]!.body).toEqual([3]);
  });

  it('moves to another thread with its views: the receiver reads the same bytes', async () => {
    const reqs: { body: string | BodyPart[] }[] = [{ body: text[0]! }, { body: text[1]! }];
    const buf = packBodies(reqs)!;
    const { port1, port2 } = new MessageChannel();
    const got = new Promise<{ body: BodyPart[] }[]>((resolve) => port2.once('message', resolve));
    port1.postMessage(reqs, [buf]);
    const recv = await got;
    port1.close();
    expect(buf.byteLength).toBe(0); // moved, not copied
    expect(Buffer.concat(recv[0]!.body as Uint8Array[]).toString()).toBe(text[0]);
    expect(Buffer.concat(recv[1]!.body as Uint8Array[]).toString()).toBe(text[1]);
    expect((recv[0]!.body[0] as Uint8Array).buffer).toBe((recv[1]!.body[0] as Uint8Array).buffer);
  });
});
