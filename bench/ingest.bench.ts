/**
 * How many events per second one core ingests: stamp + SSE framing + dialect decode + columnar
 * append (StreamDecoder, the engine's per-read path), fed vLLM-shaped chunks.
 * Run: npm run bench (or node bin/run-ts.mjs bench/ingest.bench.ts)
 */
import { newRecord, type RequestRecord } from '../shared/record.ts';
import { SseParser, type SseEvent } from '../electron/engine/framing/sse.ts';
import { getDialect } from '../electron/engine/dialects/index.ts';
import { StreamDecoder } from '../electron/engine/stream-decoder.ts';

function vllmChunk(i: number, withUsage: boolean): string {
  const usage = withUsage
    ? `,"usage":{"prompt_tokens":43,"total_tokens":${43 + i + 1},"completion_tokens":${i + 1}}`
    : '';
  return `data: {"id":"chatcmpl-8b2b91720edd4372b0579e89255b4828","object":"chat.completion.chunk","created":1772423572,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":" token${i % 100}"},"logprobs":null,"finish_reason":null}]${usage}}\n\n`;
}

function emptyRecord(): RequestRecord {
  return newRecord({
    id: 'b',
    url: '',
    dialect: 'openai-chat',
    model: 'm',
    startedAtWall: 0,
    phases: { connectedMs: 0, requestWrittenMs: 0, headersMs: 0, firstByteMs: null, endMs: null },
    status: 200,
    contentType: 'text/event-stream',
  });
}

export function benchIngest(events = 200_000): Record<string, number> {
  const enc = new TextEncoder();
  const oneEventReads: Uint8Array[] = [];
  for (let i = 0; i < events; i++) oneEventReads.push(enc.encode(vllmChunk(i, true)));
  const all = Buffer.concat(oneEventReads);
  const bigReads: Uint8Array[] = [];
  for (let o = 0; o < all.length; o += 16384) bigReads.push(all.subarray(o, o + 16384));
  const results: Record<string, number> = {};

  const runFull = (reads: Uint8Array[], expected = events): number => {
    const rec = emptyRecord();
    const d = new StreamDecoder(getDialect('openai-chat'), rec);
    const t0 = performance.now();
    for (let r = 0; r < reads.length; r++) {
      const t = performance.now() - t0; // the stamp, as the engine takes it
      d.pushRead(reads[r]!, t, r); // stamp + split (the socket callback)
      d.flush(); // decode (the engine does it after the I/O phase; same work)
    }
    const ms = performance.now() - t0;
    if (rec.events.n !== expected) throw new Error(`expected ${expected} events, got ${rec.events.n}`);
    return ms;
  };
  const runFraming = (reads: Uint8Array[]): number => {
    const p = new SseParser();
    const out: SseEvent[] = [];
    let n = 0;
    const t0 = performance.now();
    for (const r of reads) {
      out.length = 0;
      n += p.push(r, out);
    }
    const ms = performance.now() - t0;
    if (n !== events) throw new Error('framing count');
    return ms;
  };
  // warm-up, then best of 3 (the machine is shared and noisy)
  runFull(oneEventReads.slice(0, 20_000), 20_000);
  const best = (f: () => number): number => Math.min(f(), f(), f());
  results.fullPipelineEventsPerSecOneEventPerRead = Math.round(
    events / (best(() => runFull(oneEventReads)) / 1000),
  );
  results.fullPipelineEventsPerSec16KReads = Math.round(events / (best(() => runFull(bigReads)) / 1000));
  results.framingOnlyEventsPerSecOneEventPerRead = Math.round(
    events / (best(() => runFraming(oneEventReads)) / 1000),
  );
  results.bytesPerEvent = Math.round(all.length / events);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(benchIngest(), null, 2));
}
