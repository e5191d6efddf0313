/**
 * A report's data (shared/report/) from real runs of the simulator: a 10,000-request run stays
 * well under 5 MB with the page, its histograms and CDFs count exactly what its summary counts,
 * thinned swimlane ticks keep every token and the exact tokens per second, and untrusted text
 * (a run's name, a server's error message) cannot leave the page's data element.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportData, reportRun } from '../../../shared/report/report-data.ts';
import { fillReportTemplate, scriptSafeJson } from '../../../shared/report/report-html.ts';
import { REPORT_DATA_PLACEHOLDER, type ReportData } from '../../../shared/report/report-types.ts';
import type { RunDetail } from '../../../shared/runs-api.ts';
import type { RunHeader, RunRequestLine } from '../../../shared/runs/file/line-schema.ts';
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { statsOf } from '../../../shared/runs/summary/stats-of.ts';
import { summarizeRunLines } from '../../../shared/runs/summary/summarize-run.ts';
import { startSim, type SimServer } from '../../sim/index.ts';
import { runAgainst } from '../../testing/runs.ts';

let sim: SimServer;
let base: { header: RunHeader; lines: RunRequestLine[]; summary: RunSummary };

function detailOf(header: RunHeader, lines: RunRequestLine[], summary: RunSummary, name = 'run'): RunDetail {
  return {
    entry: {
      key: 'run.jsonl',
      runId: header.runId,
      name,
      startedAtWall: header.startedAtWall,
      model: header.target.model,
      url: header.target.url,
      dialect: header.target.dialect,
      source: 'tokenscope',
      imported: false,
      partial: false,
      damage: null,
      cancelled: false,
      running: false,
      completed: summary.vllm.completed,
      failed: summary.vllm.failed,
      durationS: summary.vllm.duration,
      flagged: false,
      sizeBytes: 0,
    },
    header,
    summary,
    lines,
    outcomes: null,
    problems: [],
  };
}

/** `copies` of the base run's 20 requests one after another: 200-token streams, a new id each. */
function bigRun(copies: number): RunDetail {
  const span = 1000 * Math.ceil(base.summary.vllm.duration + 0.5);
  const lines: RunRequestLine[] = [];
  for (let k = 0; k < copies; k++)
    for (const l of base.lines)
      lines.push({
        ...l,
        id: `${l.id}-${k}`,
        seq: k * base.lines.length + l.seq,
        scheduledMs: l.scheduledMs === null ? null : l.scheduledMs + k * span,
        arrivedMs: l.arrivedMs + k * span,
        startedMs: l.startedMs + k * span,
        ...(l.sentMs !== undefined ? { sentMs: l.sentMs + k * span } : {}),
      });
  const summary = summarizeRunLines(base.header, lines, { durationS: (copies * span) / 1000 });
  return detailOf(base.header, lines, summary);
}

const TEMPLATE = `<!doctype html><title>t</title><script type="application/json" id="tokenscope-report">${REPORT_DATA_PLACEHOLDER}</script><script type="module">x()</script>`;

/** The data back out of a filled page, as the page's JSON.parse reads it. */
function dataIn(page: string): ReportData {
  const m = /<script type="application\/json" id="tokenscope-report">([\s\S]*?)<\/script>/.exec(page);
  return JSON.parse(m![1]!) as ReportData;
}

beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, prefillMsPerToken: 0 });
  const r = await runAgainst(sim, {
    requests: 20,
    maxConcurrency: 10,
    prompts: { type: 'synthetic', inputLen: 8, outputLen: 200 },
  });
  base = { header: r.header, lines: r.lines, summary: r.summary };
}, 60_000);

afterAll(async () => {
  await sim.close();
});

describe('report data', () => {
  it('keeps a 10,000-request run of 200-token streams far under 5 MB', () => {
    const d = bigRun(500);
    expect(d.lines!.length).toBe(10_000);
    const data = buildReportData({
      runs: [d],
      compare: null,
      tokenscopeVersion: 'test',
      generatedAtWall: 0,
    });
    expect(data.ok).toBe(true);
    if (!data.ok) return;
    const bytes = Buffer.byteLength(scriptSafeJson(data.value));
    const lanes = data.value.runs[0]!.lanes!;
    console.info(
      `report data for 10,000 requests / ${lanes.events} events: ${(bytes / 1e6).toFixed(2)} MB, ` +
        `${lanes.ticksKept} ticks kept`,
    );
    // The page itself (script and styles) is ~0.9 MB: data and page together stay under 5 MB.
    expect(bytes).toBeLessThan(4_000_000);
    expect(lanes.events).toBeGreaterThanOrEqual(2_000_000);
    expect(lanes.ticksKept).toBeLessThanOrEqual(100_000 + 2 * 10_000);
    expect(lanes.id.length).toBe(10_000);
  }, 60_000);

  it('counts what the summary counts, and thins ticks without losing a token', () => {
    const d = bigRun(3);
    const r = reportRun(d, 500);
    const s = d.summary;
    const total = (bins: { count: number }[]) => bins.reduce((a, b) => a + b.count, 0);
    expect(total(r.hist.ttft)).toBe(statsOf(s, 'ttft')!.count);
    expect(total(r.hist.tpot)).toBe(statsOf(s, 'tpot')!.count);
    expect(total(r.hist.itl)).toBe(statsOf(s, 'itl')!.count);
    expect(total(r.hist.e2el)).toBe(statsOf(s, 'e2el')!.count);
    const ttftCdf = r.cdfs.find((c) => c.id === 'ttft')!.series[0]!.points;
    expect(ttftCdf[ttftCdf.length - 1]).toEqual({ v: statsOf(s, 'ttft')!.max, p: 100 });
    expect(ttftCdf[0]!.v).toBe(statsOf(s, 'ttft')!.min);
    const lanes = r.lanes!;
    const tokens = d
      .lines!.filter((l) => !l.warmup)
      .reduce((a, l) => a + l.events.tok.reduce((x, y) => x + y, 0), 0);
    expect(lanes.ticksKept).toBeLessThan(lanes.events / 5);
    expect(lanes.tickTok.reduce((a, b) => a + b, 0)).toBe(tokens);
    expect(lanes.tokPerS.reduce((a, b) => a + b, 0)).toBe(tokens);
    expect(tokens).toBe(s.vllm.total_output_tokens);
  });

  it('keeps a hostile name and error message inside the data element, unchanged', () => {
    const hostile = 'a </script><script>alert(1)</script> <!-- b $& $1 \u2028';
    const lines = base.lines.map((l, i) =>
      i === 0
        ? {
            ...l,
            status: 'error' as const,
            error: {
              kind: 'server' as const,
              code: 'error-event' as const,
              message: `</SCRIPT><!--${hostile}`,
            },
          }
        : l,
    );
    const d = detailOf(base.header, lines, base.summary, hostile);
    const data = buildReportData({ runs: [d], compare: null, tokenscopeVersion: 't', generatedAtWall: 0 });
    if (!data.ok) throw new Error(data.error.message);
    const page = fillReportTemplate(TEMPLATE, data.value)!;
    // Only the template's own two closing tags; no comment opener at all.
    expect(page.match(/<\/script/gi)!.length).toBe(2);
    expect(page).not.toContain('<!--');
    const back = dataIn(page);
    expect(back.runs[0]!.entry.name).toBe(hostile);
    expect(back.runs[0]!.lanes!.errors[0]![1]).toBe(`server/error-event: </SCRIPT><!--${hostile}`);
    expect(back).toEqual(JSON.parse(JSON.stringify(data.value)));
  });

  it('refuses a template without exactly one placeholder', () => {
    const data = buildReportData({ runs: [], compare: null, tokenscopeVersion: 't', generatedAtWall: 0 });
    if (!data.ok) throw new Error(data.error.message);
    expect(fillReportTemplate('<html></html>', data.value)).toBeNull();
    expect(fillReportTemplate(TEMPLATE + TEMPLATE, data.value)).toBeNull();
  });
});
