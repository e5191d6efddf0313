/**
 * The child of platform/heap-growth.test.ts (run with `node --expose-gc bin/run-ts.mjs`): holds a
 * live set, then churns objects that live through a few scavenges before they die (promoted
 * garbage, as a long run's finished requests are), and prints how far the old space was committed
 * past what a full collection kept. `limited`: with limitHeapGrowth() first; `default`: V8's own
 * growth factor.
 */
import v8 from 'node:v8';
import { limitHeapGrowth } from '../platform/heap-growth.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const mode = process.argv[2];
if (mode === 'limited') limitHeapGrowth();
else if (mode !== 'default') throw new Error('usage: heap-growth-child.ts limited|default');

const oldSpace = (): v8.HeapSpaceInfo =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!;

// ~60 MB live: the objects kept for the whole run, and a ring of short-lived ones.
const kept: { a: number; b: number; c: number[] }[] = [];
for (let i = 0; i < 400_000; i++) kept.push({ a: i, b: i * 2, c: [i, i + 1, i + 2] });
const RING = 100_000;
const ring: { x: number; y: number[] }[] = [];
for (let i = 0; i < RING; i++) ring.push({ x: i, y: [i, i] });
gc();
gc();
const liveBytes = oldSpace().space_used_size;

// Each object outlives ~100,000 allocations (several scavenges), is promoted, then dies.
let maxCommitted = 0;
for (let i = 0; i < 3_000_000; i++) {
  ring[i % RING] = { x: i, y: [i, i] };
  if (i % 5_000 === 0) maxCommitted = Math.max(maxCommitted, oldSpace().space_size);
}
process.stdout.write(JSON.stringify({ liveBytes, maxCommitted, held: kept.length + ring.length }) + '\n');
