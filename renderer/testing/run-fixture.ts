/**
 * A small hand-made run for tests: N requests of the hand-made record (4 tokens, TTFT 12.3456 ms,
 * end 61.5 ms), sent every 100 ms, the last one failing with an HTTP error; with its header,
 * summary and RunDetail as the core would send them.
 */
import type { RunDetail } from '../../shared/runs-api.ts';
import { recordToLine } from '../../shared/runs/file/record-line.ts';
import type { RunHeader, RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import { summarizeRunLines } from '../../shared/runs/summary/summarize-run.ts';
import { parseWorkload } from '../../shared/runs/workload/workload.ts';
import { HTTP_ERROR, handMadeRecord } from './record-fixture.ts';

export function runHeader(): RunHeader {
  const w = parseWorkload({ requests: 5, maxConcurrency: 2, slo: { ttftMs: 50 } });
  if (!w.ok) throw new Error('fixture workload');
  return {
    type: 'header',
    format: 'tokenscope-run',
    version: 1,
    runId: 'run-1',
    name: 'fixture run',
    workload: w.value,
    target: {
      url: 'http://127.0.0.1:8000/',
      dialect: 'openai-chat',
      model: 'tokenscope-sim',
      headerNames: [],
      authenticated: false,
    },
    tokenscopeVersion: 'test',
    nodeVersion: 'v20',
    platform: 'linux-x64',
    startedAtWall: Date.UTC(2026, 0, 2, 3, 4, 5),
    startedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)).toISOString(),
  };
}

export function runLines(n = 5, opts: { warmup?: number } = {}): RunRequestLine[] {
  const lines: RunRequestLine[] = [];
  for (let w = 0; w < (opts.warmup ?? 0); w++) {
    lines.push(
      recordToLine(handMadeRecord({ id: `w${w}` }), {
        seq: w,
        warmup: true,
        scheduledMs: null,
        arrivedMs: 0,
        startedMs: 0,
        inputTokensEstimate: 9,
        expectedOutputTokens: 4,
        saveText: false,
      }),
    );
  }
  for (let i = 0; i < n; i++) {
    const failed = i === n - 1;
    const rec = failed
      ? handMadeRecord({
          id: `r${i}`,
          status: 400,
          error: HTTP_ERROR,
          events: { ...handMadeRecord().events, n: 0 },
          usage: null,
          tokenSource: 'estimated',
          phases: { connectedMs: 0.8, requestWrittenMs: 1.1, headersMs: 4.2, firstByteMs: null, endMs: 4.2 },
        })
      : handMadeRecord({ id: `r${i}` });
    // Every other request waited 10 ms for a slot.
    const arrived = i * 100;
    const started = arrived + (i % 2 === 1 ? 10 : 0);
    lines.push(
      recordToLine(rec, {
        seq: i,
        warmup: false,
        scheduledMs: arrived,
        arrivedMs: arrived,
        startedMs: started,
        inputTokensEstimate: 9,
        expectedOutputTokens: 4,
        saveText: false,
      }),
    );
  }
  return lines;
}

export function runDetail(n = 5): RunDetail {
  const header = runHeader();
  return detailOf(header, runLines(n), {
    key: '20260102-030405-run1.jsonl',
    runId: 'run-1',
    name: 'fixture run',
  });
}

/** A run's detail as the core sends it to the app: its entry, header, lines and their summary. */
export function detailOf(
  header: RunHeader,
  lines: RunRequestLine[],
  id: { key: string; runId: string; name: string },
): RunDetail {
  const summary = summarizeRunLines(header, lines, { durationS: 0.5 });
  return {
    entry: {
      key: id.key,
      runId: id.runId,
      name: id.name,
      startedAtWall: header.startedAtWall,
      model: 'tokenscope-sim',
      url: header.target.url,
      dialect: header.target.dialect,
      source: 'tokenscope',
      imported: false,
      partial: false,
      cancelled: false,
      running: false,
      completed: summary.vllm.completed,
      failed: summary.vllm.failed,
      durationS: 0.5,
      flagged: false,
      sizeBytes: 1000,
    },
    header,
    summary,
    lines,
    outcomes: null,
    problems: [],
  };
}
