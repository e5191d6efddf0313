/**
 * Live run dashboard frame times in Chromium: web mode (electron/serve.ts) + Debian's Chromium
 * (playwright-core), a run of `streams` concurrent streams against a simulator that decodes them
 * all at once (maxNumSeqs = streams), started from the UI. The page records every
 * requestAnimationFrame timestamp while the run goes; frame time = gap between frames (16.7 ms
 * at 60 Hz; a dropped frame shows as 33 ms). Also the swimlane's own draw time per frame.
 * Needs `npm run build` (out/renderer) and Chromium.
 * `node bin/run-ts.mjs bench/run-dashboard.bench.ts [streams] [requests] [outputTokens]`
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { startSim } from '../electron/sim/index.ts';
import { launch, startApp } from '../e2e/fixtures.ts';
import { startProfile, stopProfile } from './run-dashboard/profile.ts';

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}

const r2 = (v: number): number => Math.round(v * 100) / 100;

function dist(values: number[]): Record<string, number> {
  const s = [...values].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: r2(pct(s, 50)),
    p95: r2(pct(s, 95)),
    p99: r2(pct(s, 99)),
    max: r2(s.at(-1) ?? NaN),
    mean: r2(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
  };
}

/** The run as the bench starts it from the UI. */
interface DashboardRun {
  streams: number;
  requests: number;
  outputTokens: number;
}

/** Starts the run from the Runs tab's form and waits until all its streams are going. */
async function startRun(page: Page, targetId: string, run: DashboardRun): Promise<void> {
  const { streams, requests, outputTokens } = run;
  await page.getByTestId('runs-tab').click();
  await page.waitForFunction(
    (id) => !!document.querySelector(`[data-testid="run-target"] option[value="${id}"]`),
    targetId,
  );
  await page.getByTestId('run-target').selectOption(targetId);
  await page.waitForFunction(
    () =>
      (document.querySelector<HTMLSelectElement>('.run-form [data-testid="model-select"]')?.value ?? '') !==
      '',
  );
  await page.getByTestId('run-requests').fill(String(requests));
  await page.getByTestId('run-concurrency').fill(String(streams));
  await page.getByTestId('outputLen-value').fill(String(outputTokens));
  await page.getByTestId('run-start').click();
  await page.getByTestId('run-dashboard').waitFor();
  // Measure once all streams are going, until the run is done.
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="run-inflight"]')?.textContent ?? 0) >= n,
    streams,
    { timeout: 60_000, polling: 100 },
  );
}

/** Starts recording every animation frame's timestamp, and the long animation frames, in the page. */
async function recordFrames(page: Page): Promise<void> {
  // A string, not a function: tsx's keepNames would inject a `__name` helper the page lacks.
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__swimDrawMs = [];
    window.__stopFrames = false;
    const tick = (t) => {
      window.__frames.push(t);
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    // Long animation frames (> 50 ms): how much was script, how much style/layout/paint.
    window.__loaf = [];
    try {
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) {
          const script = e.scripts.reduce((a, s) => a + s.duration, 0);
          const layout = e.renderStart ? e.startTime + e.duration - e.renderStart : 0;
          window.__loaf.push({ duration: e.duration, script, render: layout, top: e.scripts.map((s) => s.invoker + ' ' + Math.round(s.duration)).slice(0, 3).join(', ') });
        }
      }).observe({ type: 'long-animation-frame', buffered: false });
    } catch {}
  })()`);
}

/** What the page recorded over the measured part, and the swimlane's counts of its last frame. */
interface FrameData {
  loaf: { duration: number; script: number; render: number; top: string }[];
  frames: number[];
  draw: number[];
  lanes: number;
  ticks: number;
  requests: number;
}

/** Waits for the drain to start (every request arrived), then stops recording and collects. */
async function collectFrames(page: Page): Promise<FrameData> {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="run-phase"]')?.getAttribute('data-phase') === 'draining' &&
      Number(document.querySelector('[data-testid="run-queued"]')?.textContent ?? 1) === 0,
    undefined,
    { timeout: 300_000, polling: 250 },
  );
  // Stop at the start of the drain (all arrived): the measured part is full concurrency.
  return (await page.evaluate(`(() => {
    window.__stopFrames = true;
    const lanes = document.querySelector('[data-testid="run-swimlane"]');
    return { loaf: window.__loaf, frames: window.__frames, draw: window.__swimDrawMs, lanes: Number(lanes?.getAttribute('data-lanes')), ticks: Number(lanes?.getAttribute('data-ticks')), requests: Number(lanes?.getAttribute('data-requests')) };
  })()`)) as FrameData;
}

/** Frame times (gaps between frames), the swimlane's draw times and the long frames, summarised. */
function frameStats(data: FrameData): Record<string, unknown> {
  const gaps: number[] = [];
  for (let i = 1; i < data.frames.length; i++) gaps.push(data.frames[i]! - data.frames[i - 1]!);
  return {
    fps: r2(gaps.length / (gaps.reduce((a, b) => a + b, 0) / 1000 || 1)),
    frameMs: dist(gaps),
    framesOver16_7ms: gaps.filter((g) => g > 16.7 * 1.5).length,
    swimlaneDrawMs: dist(data.draw),
    lastFrame: { lanesDrawn: data.lanes, tickRects: data.ticks, lanesInStore: data.requests },
    longFrames: {
      count: data.loaf.length,
      scriptMs: r2(data.loaf.reduce((a, e) => a + e.script, 0)),
      renderMs: r2(data.loaf.reduce((a, e) => a + e.render, 0)),
      totalMs: r2(data.loaf.reduce((a, e) => a + e.duration, 0)),
      ...(process.env.BENCH_PROFILE ? { entries: data.loaf } : {}),
    },
  };
}

export async function benchRunDashboard(
  streams = 256,
  requests = streams * 3,
  outputTokens = 128,
): Promise<Record<string, unknown>> {
  const sim = await startSim({ port: 0, maxNumSeqs: streams, log: () => {} });
  // The e2e tests' web-mode app, without its own simulator: this one decodes all streams together.
  const { server, userData } = await startApp({ version: 'bench', startSimulator: false, log: () => {} });
  const target = server.core.targets.save({
    name: `bench simulator (${streams} seqs)`,
    baseUrl: sim.url,
    dialect: 'openai-chat',
  });
  const browser = await launch(); // the e2e tests' Chromium and flags
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(server.openUrl);
    await startRun(page, target.id, { streams, requests, outputTokens });
    await recordFrames(page);
    // BENCH_PROFILE=1: a CPU profile of the page over the measured part, top functions by self time.
    const cdp = await startProfile(page);
    const t0 = Date.now();
    const data = await collectFrames(page);
    const measuredS = (Date.now() - t0) / 1000;
    const profile = cdp ? await stopProfile(cdp) : undefined;
    await page.waitForFunction(() => !!document.querySelector('[data-testid="run-summary"]'), undefined, {
      timeout: 300_000,
      polling: 250,
    });
    const completed = Number((await page.getByTestId('sum-completed').textContent()) ?? 0);
    return {
      streams,
      requests,
      outputTokens,
      completed,
      measuredS: r2(measuredS),
      ...frameStats(data),
      ...(profile ? { profile } : {}),
    };
  } finally {
    await browser.close();
    await server.close();
    await sim.close();
    fs.rmSync(userData, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [streams, requests, out] = process.argv.slice(2).map(Number);
  console.log(
    JSON.stringify(await benchRunDashboard(streams || 256, requests || undefined, out || undefined), null, 2),
  );
}
