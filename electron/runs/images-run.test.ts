/**
 * Images in prompts end to end over loopback against the simulator: generated PNGs and image
 * files (workload `images`, a JSONL file's `images`) go out as OpenAI image_url data URLs and
 * Anthropic image blocks; the simulator charges ceil(w/28)·ceil(h/28) prompt tokens an image
 * (sim/images.ts) and its ground truth keeps them; each line has its body's bytes and images, and
 * the summary's `upload` has bytes, write and upload times beside TTFT. Bad input fails the load
 * with the field's name: a file over the size limit (refused unread), a file that is no image, a
 * dialect that carries no images.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { imageTokensOf } from '../sim/images.ts';
import { runAgainst, tmpDir, workload } from '../testing/runs.ts';
import { prepareRun } from './prepare-run.ts';
import type { WorkloadInput } from '../../shared/runs/workload/workload.ts';
import type { DialectId } from '../../shared/dialects.ts';
import { IMAGE_LIMITS } from '../../shared/runs/workload/images.ts';
import { encodePng, noiseRgb } from './prompts/png.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, groundTruth: true });
});
afterAll(() => sim.close());

const base = (over: Partial<WorkloadInput> = {}): WorkloadInput => ({
  requests: 6,
  maxConcurrency: 2,
  testRequest: false,
  prompts: { type: 'synthetic', inputLen: 20, outputLen: 4 },
  ...over,
});

async function run(input: WorkloadInput, dialect: DialectId = 'openai-chat', dir = process.cwd()) {
  const w = workload(input);
  const target = { url: sim.url, dialect, model: 'tokenscope-sim' };
  const { prompts } = await prepareRun(w, target, dir);
  return runAgainst(sim, input, { prompts, target });
}

/** A JPEG's headers only (SOI, SOF0 with the size, SOS): all the simulator reads of it. */
function jpegHeaders(width: number, height: number): Buffer {
  const sof = [
    0xff,
    0xc0,
    0x00,
    0x11,
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  return Buffer.from([0xff, 0xd8, ...sof, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]);
}

describe('images against the simulator', () => {
  it.each(['openai-chat', 'anthropic-messages'] as const)(
    '%s: generated PNGs are charged by the stated rule, and the upload is summarised',
    async (dialect) => {
      const plain = await run(base(), dialect);
      const r = await run(base({ images: { count: 2, width: 100, height: 60, distinct: 3 } }), dialect);
      const per = imageTokensOf(100, 60); // ceil(100/28)·ceil(60/28) = 4·3
      expect(per).toBe(12);
      // The same text prompts (same seed), plus 2 images of 12 tokens each, by the server's usage.
      const byHash = new Map(plain.lines.map((l) => [l.seq, l.usage!.promptTokens!]));
      for (const l of r.lines) {
        expect(l.usage!.promptTokens).toBe(byHash.get(l.seq)! + 2 * per);
        expect(l.images).toBe(2);
        expect(l.requestBytes).toBeGreaterThan(2 * 100 * 60 * 3 * (4 / 3)); // two base64 PNGs of noise
      }
      expect(plain.lines.every((l) => l.requestBytes === undefined)).toBe(true);
      expect(plain.summary.upload).toBeUndefined();
      const u = r.summary.upload!;
      expect(u.requests).toBe(6);
      expect(u.images).toBe(12);
      expect(u.requestBytes!.mean).toBe(r.lines.reduce((s, l) => s + l.requestBytes!, 0) / 6);
      for (const l of r.lines)
        expect(l.phases.firstByteMs!).toBeGreaterThanOrEqual(l.phases.requestWrittenMs!);
      expect(u.uploadMs!.count).toBe(6);
      expect(u.ttftMs!.max).toBe(Math.max(...r.lines.map((l) => l.ttftMs!)));
      // The simulator's ground truth counts them.
      const truth = sim.groundTruthPhases!().filter((p) => p.imageTokens !== undefined);
      expect(truth.slice(-6).every((p) => p.imageTokens === 2 * per)).toBe(true);
    },
  );

  it('image files and a JSONL file whose rows name images (PNG and JPEG)', async () => {
    const dir = tmpDir('tokenscope-images-');
    writeFileSync(path.join(dir, 'a.png'), encodePng(56, 56, noiseRgb(56, 56, 1, 'x')));
    mkdirSync(path.join(dir, 'imgs'));
    writeFileSync(path.join(dir, 'imgs', 'b.jpg'), jpegHeaders(300, 200));
    writeFileSync(
      path.join(dir, 'p.jsonl'),
      [
        JSON.stringify({ prompt: 'look at this', images: ['imgs/b.jpg'] }),
        JSON.stringify({ prompt: 'and this', images: ['a.png', 'imgs/b.jpg'] }),
        JSON.stringify({ prompt: 'no image' }),
      ].join('\n'),
    );
    const files = await run(
      base({ requests: 4, images: { count: 1, paths: ['a.png', 'imgs/b.jpg'] } }),
      'openai-chat',
      dir,
    );
    const t = [imageTokensOf(56, 56), imageTokensOf(300, 200)];
    expect(t).toEqual([4, 88]);
    const own = files.lines.map((l) => l.usage!.promptTokens!);
    const plain = (await run(base({ requests: 4 }), 'openai-chat', dir)).lines.map(
      (l) => l.usage!.promptTokens!,
    );
    expect(own.map((n, i) => n - plain[i]!)).toEqual([4, 88, 4, 88]);

    const rows = await run(
      {
        ...base({ requests: 3, maxConcurrency: 1 }),
        prompts: { type: 'jsonl', path: path.join(dir, 'p.jsonl'), outputLen: 4 },
      },
      'anthropic-messages',
      dir,
    );
    expect(rows.lines.map((l) => l.images)).toEqual([1, 2, undefined]);
    expect(rows.summary.upload!.requests).toBe(2);
  });

  it('bad images fail the load with the field named; a dialect without images is refused', async () => {
    const dir = tmpDir('tokenscope-images-bad-');
    writeFileSync(path.join(dir, 'big.png'), Buffer.alloc(IMAGE_LIMITS.imageBytes + 1));
    writeFileSync(path.join(dir, 'text.png'), 'not an image');
    writeFileSync(
      path.join(dir, 'p.jsonl'),
      JSON.stringify({ prompt: 'x', images: ['text.png'] }) +
        '\n' +
        JSON.stringify({ prompt: 'y', images: 'a.png' }),
    );
    const prep = (input: WorkloadInput, dialect: DialectId = 'openai-chat') =>
      prepareRun(workload(input), { url: sim.url, dialect, model: 'm' }, dir);
    await expect(prep(base({ images: { paths: ['big.png'] } }))).rejects.toThrow(
      /images\.paths\[0\]: .*big\.png is 10485761 bytes, over the limit of 10485760 bytes/,
    );
    await expect(prep(base({ images: { paths: ['text.png'] } }))).rejects.toThrow(
      /images\.paths\[0\]: .*text\.png is not a PNG or JPEG image/,
    );
    await expect(prep(base({ images: { paths: ['nope.png'] } }))).rejects.toThrow(
      /images\.paths\[0\]: cannot read .*ENOENT/,
    );
    await expect(prep(base({ prompts: { type: 'jsonl', path: path.join(dir, 'p.jsonl') } }))).rejects.toThrow(
      /line 2: images: /,
    );
    await expect(prep(base({ images: { count: 1 } }), 'ollama-chat')).rejects.toThrow(
      /images: the ollama-chat dialect carries no images/,
    );
  });

  it('the simulator refuses an image it cannot load: a URL to fetch, bytes that are no image', async () => {
    const post = (content: unknown) =>
      fetch(`${sim.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', max_tokens: 2, messages: [{ role: 'user', content }] }),
      }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const url = await post([{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }]);
    expect(url.status).toBe(400);
    expect(url.text).toMatch(/base64 data URLs only/);
    const junk = await post([
      {
        type: 'image_url',
        image_url: { url: 'data:image/png;base64,' + Buffer.from('junk').toString('base64') },
      },
    ]);
    expect(junk.status).toBe(400);
    expect(junk.text).toMatch(/messages\[0\]\.content\[0\]: the image is not a PNG or JPEG image/);
  });
});
