/**
 * Cost of the run pipeline's CPU-side steps, which run in the same event loop that timestamps
 * streams: record → run-file line, exact summary at the end, live snapshot every 250 ms.
 * `node bin/run-ts.mjs bench/run-summary.bench.ts [requests] [tokens]`
 */
import { EventColumns } from '../shared/event-columns.ts';
import { EV_CONTENT, EV_TERMINAL, EV_USAGE } from '../shared/request.ts';
import type { RequestRecord } from '../shared/record.ts';
import { LiveStats } from '../shared/runs/live/live-stats.ts';
import { outcomeOfLine } from '../shared/runs/summary/outcome.ts';
import { recordToLine } from '../shared/runs/file/record-line.ts';
import { computeRunSummary } from '../shared/runs/summary/summary.ts';

export function benchRunSummary(requests = 10_000, tokens = 256): Record<string, number> {
  const recs: RequestRecord[] = [];
  for (let r = 0; r < requests; r++) {
    const ev = new EventColumns(tokens + 4);
    for (let i = 0; i < tokens; i++) ev.push(50 + i * 20 + (r % 7) * 0.13, 1, i, EV_CONTENT, 'x', 60);
    ev.push(50 + tokens * 20, 0, tokens, EV_USAGE, '', 80);
    ev.push(50 + tokens * 20, 0, tokens, EV_TERMINAL, '', 6);
    recs.push({
      id: `r${r}`,
      url: '',
      dialect: 'openai-chat',
      model: 'm',
      startedAtWall: 0,
      phases: {
        connectedMs: 0.1,
        requestWrittenMs: 0.2,
        headersMs: 1,
        firstByteMs: 50,
        endMs: 51 + tokens * 20,
      },
      status: 200,
      contentType: 'text/event-stream',
      serverRequestId: null,
      events: ev,
      raw: null,
      text: '',
      reasoning: '',
      finishReason: 'length',
      usage: { promptTokens: 100, completionTokens: tokens, totalTokens: 100 + tokens },
      tokenSource: 'usage-total',
      bytes: 0,
      reads: tokens,
      terminated: true,
      error: null,
    });
  }
  let t = performance.now();
  const lines = recs.map((rec, i) =>
    recordToLine(rec, {
      seq: i,
      warmup: false,
      scheduledMs: i,
      arrivedMs: i,
      startedMs: i,
      inputTokensEstimate: 100,
      expectedOutputTokens: tokens,
      saveText: false,
    }),
  );
  const lineUs = ((performance.now() - t) * 1000) / requests;
  t = performance.now();
  const json = lines.map((l) => JSON.stringify(l));
  const stringifyUs = ((performance.now() - t) * 1000) / requests;
  t = performance.now();
  const outcomes = lines.map((l) => outcomeOfLine(l));
  computeRunSummary({
    outcomes,
    durationS: 100,
    config: { maxConcurrency: null, requestRate: 'inf', burstiness: 1, numPrompts: requests },
  });
  const summaryMs = performance.now() - t;
  const live = new LiveStats();
  t = performance.now();
  for (const o of outcomes) live.add(o);
  const liveAddUs = ((performance.now() - t) * 1000) / requests;
  live.add(outcomes[0]!);
  t = performance.now();
  live.snapshot();
  const snapshotMs = performance.now() - t;
  return {
    requests,
    tokensPerRequest: tokens,
    lineUsPerRequest: lineUs,
    stringifyUsPerRequest: stringifyUs,
    bytesPerLine: json[0]!.length,
    exactSummaryMs: summaryMs,
    liveAddUsPerRequest: liveAddUs,
    liveSnapshotMs: snapshotMs,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    JSON.stringify(
      benchRunSummary(Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 256)),
      null,
      2,
    ),
  );
}
