import { describe, expect, it } from 'vitest';
import { compareRows } from './compare.ts';
import { compareCsv, compareMarkdown } from './export.ts';
import type { RunSummary } from '../summary/schema.ts';
import { summary } from '../../testing/test-summary.ts';

function run(tput: number, ttft: [number, number], queueP99: number): RunSummary {
  return {
    ...summary({ tput, ttft }),
    server: {
      ttft: null,
      e2e: null,
      queueTime: {
        count: 5,
        mean: 1,
        p50: 100,
        p90: 200,
        p99: queueP99,
        p50Bucket: [0, 300],
        p99Bucket: [0, 300],
      },
      peak: { running: 1, waiting: 0, kvCacheUsage: null },
      delta: { generationTokens: 200, promptTokens: 100, preemptions: null },
    },
  } as unknown as RunSummary;
}

const runs = [
  { label: 'vllm | main', model: 'qwen', url: 'http://a:8000/' },
  { label: 'sglang', model: 'qwen', url: 'http://b:30000/' },
];
const rows = compareRows([run(100, [50, 80], 297), run(150, [40, 120], 290)]);

describe('comparison export', () => {
  it('Markdown: legend, workload note, one row per metric with value, change and verdict', () => {
    const md = compareMarkdown(runs, rows, ['max concurrency 8 vs 16']);
    expect(md).toContain('- **A** (baseline): vllm \\| main · `qwen` · http://a:8000/');
    expect(md).toContain('> The workloads differ: max concurrency 8 vs 16.');
    expect(md).toContain('| metric | A | B | vs A |');
    expect(md).toContain('| Output token throughput | 100.0 tok/s | 150.0 tok/s | +50.0% (better) |');
    expect(md).toContain('| TTFT p99 | 80.00 ms | 120.0 ms | +50.0% (worse) |');
    // A server quantile only known as its bucket: the bucket, and "same bucket", never a percentage.
    expect(md).toContain('| Server queue time p99 | 0–300 ms | 0–300 ms | same bucket (same) |');
    // Every table line has the same number of cells.
    const cells = md
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .map((l) => l.replace(/\\\|/g, '').split('|').length);
    expect(new Set(cells).size).toBe(1);
  });

  it('CSV: numbers as numbers, the change in %, verdicts; quoted where needed', () => {
    const csv = compareCsv(runs, rows);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'metric_id,metric,unit,better,change,A,B,B_vs_A,B_ci_low,B_ci_high,B_verdict,B_unreliable,definitions',
    );
    expect(lines).toContain(
      'out-tput,Output token throughput,tok/s,higher,pct,100,150,50,,,better,,tokenscope',
    );
    expect(lines).toContain('ttft-p99,TTFT p99,ms,lower,pct,80,120,50,,,worse,,tokenscope');
    expect(lines).toContain(
      'srv-queue-p99,Server queue time p99,ms,lower,pct,0–300,0–300,,,,same,,tokenscope',
    );
    // The failure rate's change is in percentage points.
    expect(lines).toContain('fail-rate,Failure rate,%,lower,pp,0,0,0,,,same,,tokenscope');
    for (const l of lines) expect(l.split(',').length).toBe(13);
  });
});

describe('comparison export with intervals', () => {
  it('Markdown and CSV carry each change’s interval, the unreliable mark and the failure banner', () => {
    const withCi = compareRows([run(100, [50, 80], 297), run(150, [40, 120], 290)]).map((r) =>
      r.def.id === 'ttft-p99'
        ? { ...r, ci: [null, [0.1, 0.9] as [number, number]], verdict: [null, 'worse' as const] }
        : r,
    );
    withCi.find((r) => r.def.id === 'out-tput')!.unreliable = [false, true];
    const md = compareMarkdown(runs, withCi, [], 'Failure rates: A 0.0 % (0 of 10) · B 41.0 % (4 of 10).');
    expect(md).toContain('> Failure rates: A 0.0 % (0 of 10) · B 41.0 % (4 of 10).');
    expect(md).toContain('| TTFT p99 | 80.00 ms | 120.0 ms | +50.0% [+10.0%, +90.0%] (worse) |');
    expect(md).toContain('| Output token throughput | 100.0 tok/s | 150.0 tok/s | +50.0% (better) ⚠ |');
    expect(md).toContain('95 % interval of the change');
    expect(md).toContain('⚠ the failure rates differ');
    const csv = compareCsv(runs, withCi, 'vllm').trimEnd().split('\r\n');
    expect(csv).toContain('ttft-p99,TTFT p99,ms,lower,pct,80,120,50,10,90,worse,,vllm');
    expect(csv).toContain('out-tput,Output token throughput,tok/s,higher,pct,100,150,50,,,better,yes,vllm');
  });
});
