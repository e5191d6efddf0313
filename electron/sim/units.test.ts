/**
 * Small pure pieces: tokenizer, text generator, output plan, fault positions, number and JSON
 * formatting fingerprints (checked against values in the corpus files).
 */
import { describe, expect, it } from 'vitest';
import { faultTokenIndex } from './faults.ts';
import { goJson, parseRfc3339, pyDumps, rfc3339Nano, sortKeysDeep } from './json-style.ts';
import { buckets125, formatValue, HistogramData, PromWriter } from './prom-text.ts';
import { planOutput } from './scheduler.ts';
import { TextGenerator } from './text.ts';
import { countChatTokens, countPromptTokens, countTextTokens } from '../../shared/tokenizer.ts';

describe('tokenizer', () => {
  it('counts words with their leading space and each punctuation mark', () => {
    expect(countTextTokens('Hello, who are you?')).toBe(6);
    expect(countPromptTokens('Hello, who are you?')).toBe(7); // llamacpp-completion.sse tokens_evaluated
    expect(countTextTokens('internationalization')).toBe(3);
    expect(countTextTokens('')).toBe(0);
    expect(countChatTokens([{ role: 'user', content: 'Hello, who are you?' }])).toBe(1 + 5 + 6 + 4);
  });
});

describe('text generator', () => {
  it('is deterministic per seed and reads like words', () => {
    const take = (seed: number) => {
      const g = new TextGenerator(seed);
      return [...Array(200).keys()].map(() => g.next().text);
    };
    expect(take(5)).toEqual(take(5));
    expect(take(5)).not.toEqual(take(6));
    const text = take(5).join('');
    expect(text).toMatch(/^[A-Z✓“<&—東cn]/u);
    expect(text).toMatch(/[.?!]/);
    expect(text).not.toMatch(/ {2}/);
  });

  it('plans EOS independently of max_tokens, honours min_tokens and ignore_eos', () => {
    const natural = new TextGenerator(99).naturalLength;
    expect(planOutput(99, natural + 10, 0, false)).toEqual({ tokens: natural, finishReason: 'stop' });
    expect(planOutput(99, natural - 1, 0, false)).toEqual({ tokens: natural - 1, finishReason: 'length' });
    expect(planOutput(99, natural + 10, natural + 2, false)).toEqual({
      tokens: natural + 3,
      finishReason: 'stop',
    });
    expect(planOutput(99, 7, 0, true)).toEqual({ tokens: 7, finishReason: 'length' });
  });

  it('has a spread of natural lengths around ~100 tokens', () => {
    const lens = [...Array(500).keys()]
      .map((s) => new TextGenerator(s * 7919).naturalLength)
      .sort((a, b) => a - b);
    expect(lens[250]).toBeGreaterThan(70);
    expect(lens[250]).toBeLessThan(140);
    expect(lens[25]).toBeLessThan(40);
  });
});

describe('fault positions', () => {
  it('fire before token afterTokens+1, or before the last token of a shorter stream', () => {
    expect(faultTokenIndex({ kind: 'reset', param: 3 }, 10)).toBe(4);
    expect(faultTokenIndex({ kind: 'error-midstream' }, 10)).toBe(6);
    expect(faultTokenIndex({ kind: 'error-midstream' }, 3)).toBe(3);
    expect(faultTokenIndex({ kind: 'malformed-json', param: 0 }, 3)).toBe(1);
    expect(faultTokenIndex({ kind: 'stall', param: 100 }, 20)).toBe(6);
    expect(faultTokenIndex({ kind: 'no-done' }, 20)).toBeNull();
  });
});

describe('Prometheus text like prometheus_client', () => {
  it('formats floats as Python repr with Go-style exponents (values from vllm-v1.prom)', () => {
    expect(formatValue(8)).toBe('8.0');
    expect(formatValue(141797)).toBe('141797.0');
    expect(formatValue(0.3164893617021277)).toBe('0.3164893617021277');
    expect(formatValue(1795318484.9485586)).toBe('1.7953184849485586e+09');
    expect(formatValue(12571459584)).toBe('1.2571459584e+10');
    expect(formatValue(1048576)).toBe('1.048576e+06');
    expect(formatValue(0.00001)).toBe('1e-05');
    expect(formatValue(Infinity)).toBe('+Inf');
  });

  it('writes histograms as buckets, _count, _sum, then a _created gauge', () => {
    const h = new HistogramData([0.1, 1]);
    h.observe(0.05);
    h.observe(0.5);
    h.observe(5);
    const w = new PromWriter();
    w.histogram('vllm:x_seconds', 'Help.', { model_name: 'm', engine: '0' }, h, 1.5);
    expect(w.text()).toBe(
      [
        '# HELP vllm:x_seconds Help.',
        '# TYPE vllm:x_seconds histogram',
        'vllm:x_seconds_bucket{engine="0",le="0.1",model_name="m"} 1.0',
        'vllm:x_seconds_bucket{engine="0",le="1.0",model_name="m"} 2.0',
        'vllm:x_seconds_bucket{engine="0",le="+Inf",model_name="m"} 3.0',
        'vllm:x_seconds_count{engine="0",model_name="m"} 3.0',
        'vllm:x_seconds_sum{engine="0",model_name="m"} 5.55',
        '# HELP vllm:x_seconds_created Help.',
        '# TYPE vllm:x_seconds_created gauge',
        'vllm:x_seconds_created{engine="0",model_name="m"} 1.5',
        '',
      ].join('\n'),
    );
    expect(buckets125(5000)).toEqual([1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]);
  });
});

describe('JSON fingerprints', () => {
  it('Python json.dumps spacing and ASCII escapes (vLLM mid-stream error)', () => {
    expect(pyDumps({ error: { message: 'x', param: null, code: 500, l: [1, 'é'] } })).toBe(
      '{"error": {"message": "x", "param": null, "code": 500, "l": [1, "\\u00e9"]}}',
    );
  });

  it('Go escapes of <, > and & (Ollama)', () => {
    expect(goJson({ response: ' <div> &' })).toBe('{"response":" \\u003cdiv\\u003e \\u0026"}');
  });

  it('RFC3339Nano trims trailing zeros and round-trips', () => {
    const ms = Date.UTC(2025, 9, 26, 17, 21, 21, 243) + 0.02;
    expect(rfc3339Nano(ms)).toBe('2025-10-26T17:21:21.24302Z');
    expect(rfc3339Nano(Date.UTC(2025, 0, 1))).toBe('2025-01-01T00:00:00Z');
    expect(parseRfc3339('2025-10-26T17:21:21.24302Z')).toBeCloseTo(ms, 6);
  });

  it('sorts keys recursively (vLLM Responses)', () => {
    expect(JSON.stringify(sortKeysDeep({ type: 't', a: { z: 1, b: [{ y: 1, x: 2 }] } }))).toBe(
      '{"a":{"b":[{"x":2,"y":1}],"z":1},"type":"t"}',
    );
  });
});
