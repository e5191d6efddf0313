/**
 * The dashboard bench's optional CPU profile of the page (BENCH_PROFILE=1, bench/run-dashboard.bench.ts):
 * sampled over the measured part through the DevTools protocol, reported as the top functions by
 * self time.
 */
import type { CDPSession, Page } from 'playwright-core';

const r2 = (v: number): number => Math.round(v * 100) / 100;

/** Starts sampling the page's CPU when BENCH_PROFILE is set; null otherwise. */
export async function startProfile(page: Page): Promise<CDPSession | null> {
  const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  return cdp;
}

/** Stops sampling: the 25 functions with the most self time, ms. */
export async function stopProfile(cdp: CDPSession): Promise<{ fn: string; selfMs: number }[]> {
  const { profile: prof } = (await cdp.send('Profiler.stop')) as {
    profile: {
      nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
      samples: number[];
      timeDeltas: number[];
    };
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  prof.samples.forEach((id, i) => {
    const cf = byId.get(id)!.callFrame;
    const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber}:${(cf as { columnNumber?: number }).columnNumber ?? 0}`;
    self.set(key, (self.get(key) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([fn, ms]) => ({ fn, selfMs: r2(ms) }));
}
