/**
 * Memory of importing a large vLLM `--save-detailed` result (issue: a 200 MB file must import in
 * at most 3× its size). Writes a realistic file (generated texts ~700 characters, itls per token,
 * a few bare NaN), then imports it in a fresh process per mode and reads the kernel's peak RSS.
 * `npm run bench -- import [MB]`
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function writeDetailed(file: string, targetMb: number): { requests: number; bytes: number } {
  const text = 'The quick brown fox jumps over the lazy dog while the server streams tokens. '.repeat(9);
  const perRequest = 1100; // bytes per request in the file, measured on this shape
  const n = Math.round((targetMb * 1024 * 1024) / perRequest);
  const out = fs.createWriteStream(file);
  const w = (s: string): void => void out.write(s);
  const list = (f: (i: number) => string): string => {
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(f(i));
    return parts.join(', ');
  };
  w(
    `{"date": "20261124-000000", "backend": "vllm", "model_id": "m", "num_prompts": ${n}, "duration": ${n / 100},`,
  );
  w(` "completed": ${n}, "failed": 0, "total_input_tokens": ${128 * n}, "total_output_tokens": ${40 * n},`);
  w(' "request_throughput": 100.0, "output_throughput": 4000.0, "total_token_throughput": 16800.0,');
  w(' "request_goodput": NaN, "std_ttft_ms": NaN,');
  w(` "input_lens": [${list(() => '128')}],`);
  w(` "output_lens": [${list(() => '40')}],`);
  w(` "ttfts": [${list((i) => (0.02 + (i % 97) / 10_000).toFixed(6))}],`);
  w(
    ` "itls": [${list((i) => `[${Array.from({ length: 39 }, (_, k) => (0.01 + ((i + k) % 13) / 10_000).toFixed(6)).join(', ')}]`)}],`,
  );
  w(` "latencies": [${list(() => '0.42')}],`);
  w(` "start_times": [${list((i) => (1e6 + i / 100).toFixed(4))}],`);
  w(` "generated_texts": [${list(() => JSON.stringify(text))}],`);
  w(` "errors": [${list(() => '""')}]}\n`);
  out.end();
  return { requests: n, bytes: 0 };
}

export async function benchImport(targetMb = 200): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-import-'));
  const file = path.join(dir, 'vllm-detailed.json');
  const { requests } = writeDetailed(file, targetMb);
  await new Promise((r) => setTimeout(r, 200));
  const bytes = fs.statSync(file).size;
  const out: Record<string, unknown> = { fileMB: +(bytes / 1024 ** 2).toFixed(1), requests };
  for (const mode of ['importFile', 'open', 'json-parse']) {
    const r = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=8192',
        path.join(ROOT, 'bin/run-ts.mjs'),
        path.join(ROOT, 'bench/import/child.ts'),
        mode,
        file,
      ],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    const line = r.stdout.trim().split('\n').pop() ?? '';
    try {
      const j = JSON.parse(line) as { requests: number; ms: number; baseKb: number; peakKb: number };
      out[mode] = {
        requests: j.requests,
        seconds: +(j.ms / 1000).toFixed(2),
        peakMB: +(j.peakKb / 1024).toFixed(0),
        growthMB: +((j.peakKb - j.baseKb) / 1024).toFixed(0),
        growthPerFileSize: +(((j.peakKb - j.baseKb) * 1024) / bytes).toFixed(2),
      };
    } catch {
      out[mode] = `failed: ${(r.stderr || line).slice(0, 300)}`;
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchImport(Number(process.argv[2]) || 200), null, 2));
