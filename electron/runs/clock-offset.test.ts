/**
 * The clock-offset estimator against servers whose Date we control: a clock set ahead or behind
 * this one by a known amount, stamped per answer; a server without Date; one whose Date lags.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { estimateClockOffset, intersect, probeInterval } from './clock-offset.ts';
import { localMs } from './clock-probe.ts';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A server whose clock reads localMs() + offsetMs (or whatever `dateOf` says), stamped per answer. */
async function dateServer(dateOf: (() => string | null) | number): Promise<URL> {
  const s = http.createServer((_req, res) => {
    res.sendDate = false; // Node would send its own (cached) Date
    const d = typeof dateOf === 'number' ? new Date(localMs() + dateOf).toUTCString() : dateOf();
    if (d !== null) res.setHeader('date', d);
    res.end('ok');
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return new URL(`http://127.0.0.1:${(s.address() as AddressInfo).port}/`);
}

describe('probe intervals', () => {
  it('a Date of second S between send s and receive r allows θ in [S·1000 − r, (S+1)·1000 − s]', () => {
    expect(probeInterval({ sendMs: 999_000.5, recvMs: 999_001.5, dateS: 1000 })).toEqual({
      lo: 1_000_000 - 999_001.5,
      hi: 1_001_000 - 999_000.5,
    });
    expect(probeInterval({ sendMs: 1, recvMs: 2, dateS: null })).toBeNull();
  });

  it('intersects, and shows contradicting probes as lo > hi', () => {
    const before = { sendMs: 4999.0, recvMs: 4999.4, dateS: 4 }; // still second 4 just before local 5000
    const after = { sendMs: 4999.6, recvMs: 5000.0, dateS: 5 }; // second 5 by local 5000
    const iv = intersect([before, after])!;
    expect(iv.lo).toBeCloseTo(0, 9); // 5000 − 5000.0
    expect(iv.hi).toBeCloseTo(1.0, 9); // 5000 − 4999.0
    const contradiction = intersect([after, { sendMs: 5200, recvMs: 5201, dateS: 4 }])!;
    expect(contradiction.lo).toBeGreaterThan(contradiction.hi);
  });
});

describe('estimateClockOffset', () => {
  for (const trueOffset of [1234.567, -8765.4321, 0.25]) {
    it(`finds a reference clock ${trueOffset} ms from ours, within its stated uncertainty`, async () => {
      const url = await dateServer(trueOffset);
      const t = localMs();
      const e = await estimateClockOffset(url);
      const took = localMs() - t;
      expect(e.method).toBe('http-date');
      expect(e.offsetMs).not.toBeNull();
      expect(Math.abs(e.offsetMs! - trueOffset)).toBeLessThanOrEqual(e.uncertaintyMs! + 1e-6);
      // Loopback: the fine stage pins it to a couple of round trips (a loaded 2-core box: a few ms).
      expect(e.uncertaintyMs!).toBeLessThan(5);
      expect(e.rttMs!).toBeGreaterThan(0);
      expect(took).toBeLessThan(4600); // warm-up, ≤ 1.2 s coarse, ≤ 3 fine rounds of ≤ 1 s
    });
  }

  it('a Date that flips late by a varying 0.3–1.8 ms (a cached Date, as Node sends): within the lag and the uncertainty', async () => {
    const trueOffset = 500;
    const url = await dateServer(() => {
      const t = localMs() + trueOffset;
      const lag = Math.floor(t / 1000) % 2 === 0 ? 0.3 : 1.8; // how late this second's flip is
      return new Date(Math.floor((t - lag) / 1000) * 1000).toUTCString();
    });
    const e = await estimateClockOffset(url);
    expect(e.offsetMs).not.toBeNull();
    expect(e.offsetMs!).toBeGreaterThanOrEqual(trueOffset - 1.8 - e.uncertaintyMs! - 1e-6);
    expect(e.offsetMs!).toBeLessThanOrEqual(trueOffset + e.uncertaintyMs! + 1e-6);
    expect(e.uncertaintyMs!).toBeLessThan(5);
  });

  it('says so when the server sends no Date', async () => {
    const e = await estimateClockOffset(await dateServer(() => null));
    expect(e).toMatchObject({ offsetMs: null, uncertaintyMs: null, method: 'none' });
    expect(e.note).toMatch(/no Date/);
  });

  it('says so when the server cannot be reached', async () => {
    const url = await dateServer(0);
    servers[0]!.close();
    servers[0]!.closeAllConnections();
    servers.length = 0;
    const e = await estimateClockOffset(url);
    expect(e.method).toBe('none');
    expect(e.note).toMatch(/clock probe failed/);
  });
});
