/**
 * `tokenscope run` with images, as a user runs it: the flags become the workload's `images`, a
 * bad value exits 2 naming the flag or field, and a run prints its "Images and Upload" section
 * and `--json`'s `upload`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from '../sim/index.ts';
import { runCli } from '../testing/cli.ts';
import { tmpDir } from '../testing/runs.ts';
import { parseWorkload } from '../../shared/runs/workload/workload.ts';
import { applyOverrides } from './run-flags.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1 });
});
afterAll(() => sim.close());

const parsed = (o: Parameters<typeof applyOverrides>[1], raw: Record<string, unknown> = { requests: 1 }) => {
  const a = applyOverrides(raw, o);
  return a.error ? a.error : parseWorkload(a.raw);
};

describe('image flags', () => {
  it('--images, --image-size, --image-distinct, --image-file set the workload field', () => {
    const a = parsed({ images: 3, imageSize: '640x480', imageDistinct: 5 });
    expect(typeof a !== 'string' && a.ok && a.value.images).toEqual({
      count: 3,
      width: 640,
      height: 480,
      distinct: 5,
      format: 'png',
    });
    const f = parsed({ imageFile: ['a.jpg', 'b.png'] });
    expect(typeof f !== 'string' && f.ok && f.value.images?.paths).toEqual([
      path.resolve('a.jpg'),
      path.resolve('b.png'),
    ]);
    expect(parsed({ imageSize: '640' })).toMatch(/--image-size must be WIDTHxHEIGHT/);
  });

  it('a bad value exits 2 with the flag or the field named; a run prints the upload section', async () => {
    const big = await runCli([
      'run',
      '--target',
      sim.url,
      '-n',
      '1',
      '--images',
      '1',
      '--image-size',
      '8192x8192',
    ]);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(
      /--image-size: a 8192×8192 image is about 192\.0 MiB; at most 10 MiB an image/,
    );
    const dir = tmpDir('tokenscope-cli-images-');
    const wl = path.join(dir, 'w.json');
    writeFileSync(wl, JSON.stringify({ requests: 1, images: { count: 100, format: 'jpeg' } }));
    const bad = await runCli(['run', wl, '--target', sim.url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/images\.count: at most 64 images per request/);
    expect(bad.stderr).toMatch(
      /images\.format: generated images are PNG; give JPEG images as files in images\.paths/,
    );
    const ollama = await runCli([
      'run',
      '--target',
      sim.url,
      '-n',
      '1',
      '--images',
      '1',
      '--dialect',
      'ollama-chat',
    ]);
    expect(ollama.code).toBe(2);
    expect(ollama.stderr).toMatch(/images: the ollama-chat dialect carries no images/);

    const out = path.join(dir, 'run.jsonl');
    const ok = await runCli(
      [
        'run',
        '--target',
        sim.url,
        '-n',
        '3',
        '--images',
        '2',
        '--image-size',
        '64x64',
        '--input-len',
        '8',
        '--output-len',
        '2',
        '--out',
        out,
      ],
      60_000,
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout + ok.stderr).toMatch(/2 images a request \(PNG 64×64, 16 distinct, ~12 KiB each\)/);
    expect(ok.stdout).toMatch(/Requests with images: +3 \(6 images\)/);
    expect(ok.stdout).toMatch(/Upload \(written → first byte\): +p50 [\d.]+ ms/);
    const json = await runCli(
      [
        'run',
        '--target',
        sim.url,
        '-n',
        '2',
        '--images',
        '1',
        '--image-size',
        '32x32',
        '--json',
        '-q',
        '--out',
        path.join(dir, 'j.jsonl'),
      ],
      60_000,
    );
    const j = JSON.parse(json.stdout) as { upload: Record<string, number> };
    expect(j.upload.requests).toBe(2);
    expect(j.upload.images).toBe(2);
    expect(j.upload.mean_request_bytes).toBeGreaterThan(32 * 32 * 3);
  }, 120_000);
});
