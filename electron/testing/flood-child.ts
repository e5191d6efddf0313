/**
 * The measured side of the hostile-server tests (electron/engine/hostile-floods.test.ts), run in a
 * child process so its memory is its own: fires one request per flood shape through the real engine
 * (its stream-I/O thread, the default driver) at the hostile server, and prints per shape one JSON
 * line — how the request ended, what it kept, how long it took, and this process's peak memory
 * while it ran (VmHWM, reset before each shape with /proc/self/clear_refs).
 *
 * Run: node --expose-gc bin/run-ts.mjs electron/testing/flood-child.ts <url> <timeoutMs> <dialect/shape>…
 * An entry point: its engine configuration comes from the environment (TOKENSCOPE_MAX_EVENTS,
 * TOKENSCOPE_MAX_RECORD_MB, …), read once here.
 */
import fs from 'node:fs';
import { isDialectId } from '../../shared/dialects.ts';
import { EV_CONTENT } from '../../shared/request.ts';
import { fireRequest } from '../engine/client.ts';
import { configureEngine, io } from '../engine/io/io-engine.ts';
import { engineConfigFromEnv } from '../engine/engine-config.ts';

export interface FloodOutcome {
  dialect: string;
  shape: string;
  ms: number;
  error: { kind: string; code: string; message: string } | null;
  events: number;
  contentEvents: number;
  text: string;
  /** Resident memory before the request and the peak while it ran, KiB. */
  rssKb: number;
  peakKb: number;
}

function memKb(): { rss: number; hwm: number } {
  const s = fs.readFileSync('/proc/self/status', 'utf8');
  const field = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

const [url, timeout, ...cases] = process.argv.slice(2);
if (!url || !timeout) throw new Error('usage: flood-child.ts <url> <timeoutMs> <dialect/shape>…');
configureEngine(engineConfigFromEnv(process.env));
await io().ready();
for (const c of cases) {
  const [dialect = '', shape = ''] = c.split('/');
  if (!isDialectId(dialect)) throw new Error(`not a dialect: ${dialect}`);
  (globalThis as { gc?: () => void }).gc?.();
  fs.writeFileSync('/proc/self/clear_refs', '5'); // the peak starts again from here
  const before = memKb();
  const t0 = performance.now();
  const rec = await fireRequest(
    { url, dialect, model: 'm', prompt: 'x', timeoutMs: Number(timeout), headers: { 'x-flood': shape } },
    { keepRaw: true },
  );
  const ms = performance.now() - t0;
  const after = memKb();
  let contentEvents = 0;
  for (let i = 0; i < rec.events.n; i++) if (rec.events.flags[i]! & EV_CONTENT) contentEvents++;
  const e = rec.error;
  const out: FloodOutcome = {
    dialect,
    shape,
    ms,
    error: e ? { kind: e.kind, code: e.code, message: e.message } : null,
    events: rec.events.n,
    contentEvents,
    text: rec.text.slice(0, 200),
    rssKb: before.rss,
    peakKb: after.hwm,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}
// Not io().close(): its unref'd thread may outlive the loop; the results are out (pipes write synchronously).
process.exit(0);
