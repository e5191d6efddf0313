import { describe, expect, it } from 'vitest';
import { schemaProblem, validateJson } from './json-schema-lite.ts';
import { parseWorkload } from './runs/workload/workload.ts';
import { checkToolCall } from './tool-calls.ts';

const S = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['c', 'f'] },
    days: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city'],
  additionalProperties: false,
};

describe('the JSON-schema subset', () => {
  it('accepts what fits and names the first thing that does not', () => {
    expect(validateJson({ city: 'Oslo', unit: 'c', days: 3, tags: ['a'] }, S)).toBeNull();
    expect(validateJson({ unit: 'c' }, S)).toBe('$.city: required');
    expect(validateJson({ city: 1 }, S)).toBe('$.city: expected string');
    expect(validateJson({ city: 'x', unit: 'k' }, S)).toBe("$.unit: not one of the enum's values");
    expect(validateJson({ city: 'x', days: 1.5 }, S)).toBe('$.days: expected integer');
    expect(validateJson({ city: 'x', tags: ['a', 2] }, S)).toBe('$.tags[1]: expected string');
    expect(validateJson({ city: 'x', extra: 1 }, S)).toBe('$.extra: not allowed');
    expect(validateJson([], S)).toBe('$: expected object');
  });

  it('refuses keywords it does not check, with their path', () => {
    expect(schemaProblem(S)).toBeNull();
    expect(schemaProblem({ type: 'object', properties: { a: { oneOf: [] } } })).toMatch(
      /^"oneOf" at \.a is not supported/,
    );
    expect(schemaProblem({ type: 'thing' })).toMatch(/not a JSON type/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20; i++) deep = { type: 'array', items: deep };
    expect(schemaProblem(deep)).toMatch(/nested deeper/);
  });

  it('checks a call: bad JSON, schema, unknown tool, ok; empty arguments are {}', () => {
    const tools = [
      { name: 'w', parameters: S },
      { name: 'n', parameters: { type: 'object' } },
    ];
    const c = (name: string, args: string) =>
      checkToolCall({ index: 0, id: 'i', name, arguments: args }, tools).check;
    expect(c('w', '{"city":"Oslo"}')).toBe('ok');
    expect(c('w', '{"city":"Oslo"')).toBe('bad-json');
    expect(c('w', '{"city":2}')).toBe('schema');
    expect(c('x', '{}')).toBe('unknown-tool');
    expect(c('n', '')).toBe('ok');
  });

  it('a workload with an unsupported schema fails at load with the field path', () => {
    const r = parseWorkload({
      requests: 1,
      tools: { definitions: [{ name: 'f', parameters: { type: 'object', anyOf: [] } }] },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error[0]).toMatchObject({ path: 'tools.definitions[0].parameters' });
    const dup = parseWorkload({
      requests: 1,
      tools: {
        definitions: [
          { name: 'f', parameters: {} },
          { name: 'f', parameters: {} },
        ],
        choice: { name: 'g' },
      },
    });
    expect(dup.ok).toBe(false);
    if (!dup.ok)
      expect(dup.error.map((e) => e.path)).toEqual(['tools.definitions[1].name', 'tools.choice.name']);
    const steps = parseWorkload({ requests: 1, tools: { agentic: { maxSteps: 65 } } });
    expect(steps.ok).toBe(false);
    if (!steps.ok) expect(steps.error[0]!.path).toBe('tools.agentic.maxSteps');
  });
});
