/**
 * A small embeddings (or rerank) run for component tests, built as the core builds one: records
 * with no events (one JSON answer each), the server's usage and the batch, turned into run lines
 * and summarised by the shared code — so the summary has `batch` and no TTFT/ITL/TPOT, as a real
 * run of a non-streaming dialect does. Request i: 4 inputs of 30 tokens each (120 prompt tokens),
 * sent every 100 ms, answered after 40 + 10·i ms; the last one fails with HTTP 400.
 */
import type { DialectId } from '../../shared/dialects.ts';
import type { RunDetail } from '../../shared/runs-api.ts';
import { recordToLine } from '../../shared/runs/file/record-line.ts';
import type { RunRequestLine } from '../../shared/runs/file/line-schema.ts';
import { HTTP_ERROR, handMadeRecord } from './record-fixture.ts';
import { detailOf, runHeader } from './run-fixture.ts';

const NO_EVENTS = {
  n: 0,
  t: new Float64Array(0),
  tokens: new Uint32Array(0),
  read: new Uint32Array(0),
  flags: new Uint16Array(0),
  size: new Uint32Array(0),
  text: [],
};

function poolingLines(dialect: DialectId, n: number): RunRequestLine[] {
  const lines: RunRequestLine[] = [];
  for (let i = 0; i < n; i++) {
    const failed = i === n - 1;
    const endMs = 40 + 10 * i;
    const rec = handMadeRecord({
      id: `p${i}`,
      dialect,
      contentType: 'application/json',
      events: NO_EVENTS,
      raw: [],
      text: '',
      finishReason: null,
      tokenSource: 'usage-total',
      ...(failed
        ? {
            status: 400,
            error: HTTP_ERROR,
            usage: null,
            phases: {
              connectedMs: 0.8,
              requestWrittenMs: 1.1,
              headersMs: 4.2,
              firstByteMs: null,
              endMs: 4.2,
            },
          }
        : {
            usage: { promptTokens: 120, completionTokens: 0, totalTokens: 120 },
            batch:
              dialect === 'rerank' ? { inputs: 4, results: 2 } : { inputs: 4, results: 4, dimension: 384 },
            phases: {
              connectedMs: 0.8,
              requestWrittenMs: 1.1,
              headersMs: endMs - 1,
              firstByteMs: endMs - 1,
              endMs,
            },
          }),
    });
    lines.push(
      recordToLine(rec, {
        seq: i,
        warmup: false,
        scheduledMs: i * 100,
        arrivedMs: i * 100,
        startedMs: i * 100,
        inputTokensEstimate: 120,
        expectedOutputTokens: null,
        saveText: false,
      }),
    );
  }
  return lines;
}

/** The run as the core sends it to the app: header, lines, summary (with `batch`), its entry. */
export function poolingRunDetail(dialect: DialectId = 'openai-embeddings', n = 5): RunDetail {
  const base = runHeader();
  // No TTFT SLO: a run without tokens has no TTFT to hold one to.
  const { slo: _none, ...workload } = base.workload;
  const header = { ...base, workload, name: `${dialect} run`, target: { ...base.target, dialect } };
  const lines = poolingLines(dialect, n);
  return detailOf(header, lines, {
    key: `20260102-030405-${dialect}.jsonl`,
    runId: `run-${dialect}`,
    name: header.name,
  });
}
