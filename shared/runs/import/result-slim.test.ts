import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { slimResultBytes } from './result-slim.ts';
import { num, parseLenientJson } from './common.ts';
import { importVllmText } from './vllm-format.ts';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('slimResultBytes', () => {
  it('drops the values of the named top-level keys only, keeping every other byte', () => {
    const text = `{"a": 1, "generated_texts": ["x", "y \\" ], {", "z"], "nested": {"generated_texts": [1]}, "b": "NaN in a string"}`;
    const v = JSON.parse(slimResultBytes(bytes(text))) as Record<string, unknown>;
    expect(v).toEqual({
      a: 1,
      generated_texts: null,
      nested: { generated_texts: [1] },
      b: 'NaN in a string',
    });
  });

  it('rewrites bare NaN / Infinity / -Infinity outside strings, as the lenient parser does', () => {
    const text = '{"x": [NaN, Infinity, -Infinity, 1.5], "s": "Infinity NaN"}\n{"y": NaN}';
    const lines = slimResultBytes(bytes(text), new Set()).split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ x: ['n', 'inf', '-inf', 1.5], s: 'Infinity NaN' });
    expect(JSON.parse(lines[1]!)).toEqual({ y: 'n' });
    // … and each reads back as the number it was, or as no number.
    expect(['n', 'inf', '-inf'].map(num)).toEqual([null, Infinity, -Infinity]);
  });

  it('compacts in place: the output never outgrows the input (a file of nothing but NaNs)', () => {
    const text = `[${Array.from({ length: 5000 }, () => 'NaN').join(',')}]`;
    const out = slimResultBytes(bytes(text));
    expect(out.length).toBeLessThanOrEqual(text.length);
    expect(JSON.parse(out)).toHaveLength(5000);
  });

  it('keeps a dropped key whose value is too short to replace ([]), and the rest intact', () => {
    const v = JSON.parse(slimResultBytes(bytes('{"generated_texts":[],"a":[1,2]}'))) as object;
    expect(v).toEqual({ generated_texts: [], a: [1, 2] });
  });

  it('agrees with the lenient parser on any JSON with Python tokens (property)', () => {
    const withTokens = fc
      .jsonValue()
      .map((v) => JSON.stringify(v))
      .chain((s) =>
        fc
          .array(fc.constantFrom('NaN', 'Infinity', '-Infinity'), { minLength: 1, maxLength: 4 })
          .map((toks) => `{"v": ${s}, "t": [${toks.join(',')}], "generated_texts": ["${'q'.repeat(5)}"]}`),
      );
    fc.assert(
      fc.property(withTokens, (text) => {
        // NaN reads as no number either way: "n" here, null from the lenient parser.
        const slim = JSON.parse(slimResultBytes(bytes(text)), (_k, v: unknown) =>
          v === 'n' ? null : v,
        ) as Record<string, unknown>;
        const lenient = JSON.parse(JSON.stringify(parseLenientJson(text)), (_k, v: unknown) =>
          v === 'n' ? null : v,
        ) as Record<string, unknown>;
        expect(slim.v).toEqual(lenient.v);
        expect(slim.t).toEqual(lenient.t);
        expect(slim.generated_texts).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('a detailed result of 200,000 requests with NaNs imports: no stack overflow, numbers right', () => {
    const n = 200_000;
    const parts = [
      '{"date": "20261124-000000", "backend": "vllm", "model_id": "m", "num_prompts": 200000, "duration": 100.0,',
      `"completed": ${n}, "failed": 0, "total_input_tokens": ${8 * n}, "total_output_tokens": ${3 * n},`,
      '"request_throughput": 2000.0, "output_throughput": 6000.0, "total_token_throughput": 22000.0,',
      '"request_goodput": NaN, "std_ttft_ms": NaN,',
      `"input_lens": [${Array.from({ length: n }, () => 8).join(',')}],`,
      `"output_lens": [${Array.from({ length: n }, () => 3).join(',')}],`,
      `"ttfts": [${Array.from({ length: n }, (_, i) => (0.01 + (i % 100) / 10_000).toFixed(4)).join(',')}],`,
      `"itls": [${Array.from({ length: n }, () => '[0.002, 0.004]').join(',')}],`,
      `"latencies": [${Array.from({ length: n }, () => '0.02').join(',')}],`,
      `"start_times": [${Array.from({ length: n }, (_, i) => (1e6 + i / 2000).toFixed(4)).join(',')}],`,
      `"generated_texts": [${Array.from({ length: n }, () => '"three tokens here"').join(',')}],`,
      `"errors": [${Array.from({ length: n }, () => '""').join(',')}]}`,
    ];
    const r = importVllmText(slimResultBytes(bytes(parts.join('\n'))));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const run = r.value.runs[0]!;
    expect(run.outcomes).toHaveLength(n);
    expect(run.summary.vllm.completed).toBe(n);
    // TTFT cycles 10.0 … 19.9 ms evenly: mean 14.95 ms; ITL 2 and 4 ms: mean 3 ms.
    expect(run.summary.vllm.mean_ttft_ms).toBeCloseTo(14.95, 6);
    expect(run.summary.vllm.mean_itl_ms).toBeCloseTo(3, 9);
    // Start times are relative to the earliest (found without spreading 200k arguments).
    expect(run.outcomes![0]!.startMs).toBe(0);
    expect(run.outcomes![n - 1]!.startMs).toBeCloseTo(((n - 1) / 2000) * 1000, 3);
  });
});
