/**
 * ITL accuracy under load: N concurrent streams against the simulator running in its own
 * process (so client and server do not share an event loop), compared with the simulator's
 * ground-truth log of when each chunk was written. For every pair of consecutive events of a
 * request, error = measured gap − true gap. Coalesced events (several in one read) are counted
 * separately: their gap is 0 by construction, which is exactly what we flag to the user.
 * Run: node bin/run-ts.mjs bench/itl-accuracy.bench.ts [streams=256] [stepMs=20] [tokens=100]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fireRequest } from '../electron/engine/client.ts';
import { configureEngine, io } from '../electron/engine/io/io-engine.ts';
import { engineConfigFromEnv } from '../electron/engine/engine-config.ts';
import { EV_COALESCED } from '../shared/request.ts';
import { summarize } from '../shared/stats/summary.ts';
import type { RequestRecord } from '../shared/record.ts';

interface Gt {
  requestId: string;
  index: number;
  tMs: number;
}

export async function benchItlAccuracy(
  streams = 256,
  stepMs = 20,
  tokens = 100,
): Promise<Record<string, number | string>> {
  const gtFile = path.join(os.tmpdir(), `tokenscope-gt-${process.pid}.jsonl`);
  fs.rmSync(gtFile, { force: true });
  const child = spawn(
    process.execPath,
    [
      'bin/tokenscope.mjs',
      'sim',
      '--port',
      '0',
      '--quiet',
      '--max-num-seqs',
      String(streams),
      '--decode-step-ms',
      String(stepMs),
      '--decode-step-per-seq-ms',
      '0',
      '--prefill-ms-per-token',
      '0',
      '--ground-truth',
      gtFile,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (b: Buffer) => {
      buf += b.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error('sim exited')));
  });
  const pool = io().createPool({ mode: 'keep-alive', maxSockets: Infinity });
  // The client checks itself: event-loop delay explains timing error (a busy loop stamps late).
  const eld = monitorEventLoopDelay({ resolution: 1 });
  eld.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const recs: RequestRecord[] = await Promise.all(
    Array.from({ length: streams }, (_, i) =>
      fireRequest(
        {
          url,
          dialect: 'openai-chat',
          model: 'tokenscope-sim',
          prompt: `stream ${i}`,
          params: { maxTokens: tokens, ignoreEos: true },
          continuousUsage: true,
        },
        { pool, keepRaw: false },
      ),
    ),
  );
  const wallMs = performance.now() - t0;
  eld.disable();
  const cpu = process.cpuUsage(cpu0);
  io().closePool(pool);
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));

  const byReq = new Map<string, Gt[]>();
  for (const line of fs.readFileSync(gtFile, 'utf8').split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line) as Gt;
    let a = byReq.get(g.requestId);
    if (!a) byReq.set(g.requestId, (a = []));
    a.push(g);
  }
  fs.rmSync(gtFile, { force: true });

  const errs: number[] = [];
  let pairs = 0;
  let coalescedPairs = 0;
  let failed = 0;
  let mismatched = 0;
  for (const r of recs) {
    if (r.error) failed++;
    const gt = byReq.get(r.serverRequestId ?? '') ?? [];
    if (gt.length !== r.events.n) {
      mismatched++;
      continue;
    }
    for (let i = 1; i < r.events.n; i++) {
      pairs++;
      if ((r.events.flags[i]! | r.events.flags[i - 1]!) & EV_COALESCED) {
        coalescedPairs++;
        continue;
      }
      errs.push(Math.abs(r.events.t[i]! - r.events.t[i - 1]! - (gt[i]!.tMs - gt[i - 1]!.tMs)));
    }
  }
  const s = summarize(errs);
  return {
    streams,
    stepMs,
    tokensPerStream: tokens,
    wallMs: Math.round(wallMs),
    failedRequests: failed,
    requestsWithoutGroundTruthMatch: mismatched,
    gapPairs: pairs,
    coalescedPairsPct: pairs ? Number(((100 * coalescedPairs) / pairs).toFixed(2)) : 0,
    absErrMeanMs: Number((s?.mean ?? NaN).toFixed(3)),
    absErrP50Ms: Number((s?.median ?? NaN).toFixed(3)),
    absErrP90Ms: Number((s?.p90 ?? NaN).toFixed(3)),
    absErrP99Ms: Number((s?.p99 ?? NaN).toFixed(3)),
    absErrMaxMs: Number((s?.max ?? NaN).toFixed(3)),
    clientEventLoopDelayP50Ms: Number((eld.percentile(50) / 1e6).toFixed(3)),
    clientEventLoopDelayP99Ms: Number((eld.percentile(99) / 1e6).toFixed(3)),
    clientEventLoopDelayMaxMs: Number((eld.max / 1e6).toFixed(3)),
    clientCpuPct: Math.round((100 * (cpu.user + cpu.system)) / 1000 / wallMs),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [a, b, c] = process.argv.slice(2).map(Number);
  configureEngine(engineConfigFromEnv(process.env));
  console.log(JSON.stringify(await benchItlAccuracy(a || 256, b || 20, c || 100), null, 2));
}
