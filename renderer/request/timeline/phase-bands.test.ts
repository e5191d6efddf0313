import { describe, expect, it } from 'vitest';
import type { ServerPhases } from '../../../shared/tracing/server-phases.ts';
import { ttftParts } from '../../../shared/tracing/ttft-parts.ts';
import { phaseLayout } from './phase-bands.ts';

const server: ServerPhases = {
  spanId: 'a'.repeat(16),
  startWallMs: 1_000_002,
  endWallMs: 1_000_060,
  queueMs: 5,
  prefillMs: 8,
  decodeMs: 40,
  inferenceMs: 48,
  ttftMs: 14,
  e2eMs: 58,
  promptTokens: 10,
  completionTokens: 5,
  requestId: 'x',
};

describe('phaseLayout', () => {
  it('with a shared clock: the bands tile the client TTFT, send from the span start, return to the first token', () => {
    // Sent at wall 1_000_000: the span starts 2 ms later; the client saw its first token at 17 ms.
    const parts = ttftParts(17, server, 1_000_000)!;
    const l = phaseLayout(parts, server, [17, 20, 24, 30, 31, 33, 40, 41, 50]);
    expect(l.sharedClock).toBe(true);
    expect(l.bands.map((b) => b.key)).toEqual(['send', 'preQueue', 'queue', 'prefill', 'return']);
    expect(l.bands.map((b) => [b.x0, b.x1])).toEqual([
      [0, 2],
      [2, 3],
      [3, 8],
      [8, 16],
      [16, 17],
    ]);
    const sum = l.bands.reduce((n, b) => n + b.ms, 0);
    expect(sum).toBeCloseTo(17, 9);
    expect(l.serverFirstTokenMs).toBe(16);
    expect(l.chunks).toEqual([17, 20, 24, 30, 31, 33, 40]); // the first and six after
    expect(l.bands.find((b) => b.key === 'queue')!.how).toBe('measured (server span)');
    expect(l.bands.find((b) => b.key === 'send')!.how).toBe('derived (shared clock)');
  });

  it('without one: the outside time undivided on both sides, the server part centred, no arrival claimed', () => {
    const parts = ttftParts(17, server, null)!;
    const l = phaseLayout(parts, server, [17]);
    expect(l.sharedClock).toBe(false);
    expect(l.arrivalMs).toBe(null);
    expect(l.bands.map((b) => b.key)).toEqual(['outside', 'preQueue', 'queue', 'prefill', 'outside']);
    expect(l.bands[0]!.x1).toBeCloseTo(1.5, 9);
    expect(l.bands[4]!.x0).toBeCloseTo(15.5, 9);
    expect(l.bands[4]!.x1).toBe(17);
    expect(l.bands.every((b) => b.key !== 'send' && b.key !== 'return')).toBe(true);
  });
});
