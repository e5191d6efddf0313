import { describe, expect, it } from 'vitest';
import { parseWorkload } from './workload.ts';
import { parseWorkloadText } from './text.ts';

const yaml = `# qwen3 chat at 4 req/s
name: yaml workload
requests: 50
maxConcurrency: 8
rate: 4
burstiness: 0.5
prompts:
  type: synthetic
  inputLen: { type: uniform, min: 100, max: 200 }
  outputLen: 64
slo:
  ttftMs: 500
`;

describe('workload files: JSON and YAML', () => {
  it('YAML and the equivalent JSON give the same validated workload', () => {
    const y = parseWorkloadText(yaml, 'w.yaml');
    expect(y.ok).toBe(true);
    const json = JSON.stringify({
      name: 'yaml workload',
      requests: 50,
      maxConcurrency: 8,
      rate: 4,
      burstiness: 0.5,
      prompts: { type: 'synthetic', inputLen: { type: 'uniform', min: 100, max: 200 }, outputLen: 64 },
      slo: { ttftMs: 500 },
    });
    const j = parseWorkloadText(json, 'w.json');
    expect(j.ok).toBe(true);
    if (!y.ok || !j.ok) return;
    const wy = parseWorkload(y.value);
    const wj = parseWorkload(j.value);
    expect(wy.ok && wj.ok).toBe(true);
    if (wy.ok && wj.ok) {
      expect(wy.value).toEqual(wj.value);
      expect(wy.value.prompts).toMatchObject({
        type: 'synthetic',
        inputLen: { type: 'uniform', min: 100, max: 200 },
        outputLen: { type: 'fixed', value: 64 },
      });
    }
  });

  it('"inf" stays a string in YAML (the core schema has no .inf surprises for plain inf)', () => {
    const r = parseWorkloadText('requests: 10\nrate: inf\n', 'w.yml');
    expect(r.ok && r.value.rate).toBe('inf');
    const w = r.ok ? parseWorkload(r.value) : null;
    expect(w?.ok && w.value.rate).toBe('inf');
  });

  it('syntax errors name the line; non-objects and duplicate keys are refused', () => {
    const bad = parseWorkloadText('requests: 10\nprompts:\n  type: synthetic\n   inputLen: 3\n', 'w.yaml');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error[0]!.message).toMatch(/w\.yaml is not valid YAML \(line \d+\)/);
    const list = parseWorkloadText('- 1\n- 2\n', 'w.yaml');
    expect(list.ok).toBe(false);
    const dup = parseWorkloadText('requests: 1\nrequests: 2\n', 'w.yaml');
    expect(dup.ok).toBe(false);
    const js = parseWorkloadText('{"requests": 1,}', 'w.json');
    expect(js.ok).toBe(false);
    if (!js.ok) expect(js.error[0]!.message).toMatch(/not valid JSON/);
  });

  it('YAML anchors past the alias budget are refused (billion laughs)', () => {
    let doc = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 8; i++)
      doc += `a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]\n`;
    doc += 'requests: 1\n';
    const r = parseWorkloadText(doc, 'w.yaml');
    expect(r.ok).toBe(false);
  });
});
