import { describe, expect, it } from 'vitest';
import {
  buildFireInput,
  DEFAULT_FORM,
  formFromInput,
  parseExtraBody,
  type ComposerForm,
} from './fire-input.ts';

const form = (patch: Partial<ComposerForm>): ComposerForm => ({ ...DEFAULT_FORM, model: 'm', ...patch });

describe('parseExtraBody', () => {
  it('accepts an object, nothing, and rejects the rest with a reason', () => {
    expect(parseExtraBody('  ')).toEqual({ ok: true, value: undefined });
    expect(parseExtraBody('{"top_k": 20, "x": {"y": [1]}}')).toEqual({
      ok: true,
      value: { top_k: 20, x: { y: [1] } },
    });
    const bad = parseExtraBody('{"top_k": }');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^Invalid JSON/);
    expect(parseExtraBody('[1,2]')).toMatchObject({ ok: false, error: expect.stringMatching(/JSON object/) });
    expect(parseExtraBody('null')).toMatchObject({ ok: false });
  });
});

describe('buildFireInput', () => {
  it('sends messages for chat dialects and stream options for OpenAI ones', () => {
    const r = buildFireInput(
      form({
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
          { role: 'user', content: '  ' },
        ],
        continuousUsage: true,
      }),
      'sim',
      'openai-chat',
    );
    expect(r).toEqual({
      ok: true,
      value: {
        targetId: 'sim',
        dialect: 'openai-chat',
        model: 'm',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
        params: { maxTokens: 128, temperature: 0.7 },
        includeUsage: true,
        continuousUsage: true,
      },
    });
  });

  it('sends a prompt for completion dialects and no stream options where they do not exist', () => {
    const r = buildFireInput(
      form({
        dialect: 'tgi',
        prompt: 'Once upon',
        ignoreEos: true,
        minTokens: '16',
        extraBody: '{"parameters":{"top_k":5}}',
      }),
      'box',
      'openai-chat',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.dialect).toBe('tgi');
    expect(r.value.prompt).toBe('Once upon');
    expect(r.value.messages).toBeUndefined();
    expect(r.value.includeUsage).toBeUndefined();
    expect(r.value.params).toEqual({ maxTokens: 128, temperature: 0.7, minTokens: 16, ignoreEos: true });
    expect(r.value.extraBody).toEqual({ parameters: { top_k: 5 } });
  });

  it('reports every bad field at once', () => {
    const r = buildFireInput(
      form({ model: ' ', maxTokens: '1.5', temperature: 'hot', extraBody: '{', messages: [] }),
      'sim',
      'openai-chat',
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.error).sort()).toEqual(['extraBody', 'maxTokens', 'model', 'prompt', 'temperature']);
  });

  it('trace headers: on by default (nothing sent), off as traceHeaders false, and back into the form', () => {
    const on = buildFireInput(form({}), 'sim', 'openai-chat');
    expect(on.ok && on.value.traceHeaders).toBeUndefined();
    const off = buildFireInput(form({ traceHeaders: false }), 'sim', 'openai-chat');
    expect(off.ok && off.value.traceHeaders).toBe(false);
    if (off.ok) expect(formFromInput(off.value, DEFAULT_FORM).traceHeaders).toBe(false);
    if (on.ok) expect(formFromInput(on.value, DEFAULT_FORM).traceHeaders).toBe(true);
  });

  it('leaves out empty numbers', () => {
    const r = buildFireInput(form({ maxTokens: '', temperature: '' }), 'sim', 'openai-completions');
    expect(r.ok && r.value.params).toBeUndefined();
  });
});

describe('formFromInput', () => {
  it('round-trips a FireInput through the form', () => {
    const input = {
      targetId: 'sim',
      dialect: 'openai-chat' as const,
      model: 'x',
      messages: [{ role: 'user' as const, content: 'q' }],
      params: { maxTokens: 7, ignoreEos: true },
      extraBody: { a: 1 },
      headers: { 'X-T': 'v' },
      includeUsage: false,
      continuousUsage: true,
    };
    const f = formFromInput(input, DEFAULT_FORM);
    const back = buildFireInput(f, 'sim', 'openai-chat');
    expect(back.ok && back.value).toEqual({ ...input, params: { maxTokens: 7, ignoreEos: true } });
  });
});

describe('the composer for embeddings and rerank', () => {
  it('embeddings: the inputs (blank ones dropped), and no messages, sampling or stream options', () => {
    const r = buildFireInput(
      form({
        inputs: ['one', '  ', 'two'],
        maxTokens: '64',
        ignoreEos: true,
        extraBody: '{"dimensions":256}',
      }),
      'sim',
      'openai-embeddings',
    );
    expect(r).toEqual({
      ok: true,
      value: {
        targetId: 'sim',
        dialect: 'openai-embeddings',
        model: 'm',
        inputs: ['one', 'two'],
        extraBody: { dimensions: 256 },
      },
    });
  });

  it('rerank: the query, documents and top_n; the bad fields named', () => {
    const r = buildFireInput(
      form({ dialect: 'rerank', prompt: 'q?', inputs: ['a', 'b', 'c'], topN: '2' }),
      'sim',
      'openai-chat',
    );
    expect(r.ok && r.value).toEqual({
      targetId: 'sim',
      dialect: 'rerank',
      model: 'm',
      prompt: 'q?',
      inputs: ['a', 'b', 'c'],
      topN: 2,
    });
    const all = buildFireInput(form({ prompt: 'q', inputs: ['a'], topN: '' }), 'sim', 'rerank');
    expect(all.ok && all.value.topN).toBeUndefined();
    const bad = buildFireInput(form({ prompt: ' ', inputs: [' '], topN: '0' }), 'sim', 'rerank');
    expect(!bad.ok && Object.keys(bad.error).sort()).toEqual(['inputs', 'prompt', 'topN']);
    expect(!bad.ok && bad.error.inputs).toBe('Add at least one document.');
  });

  it('round-trips a rerank request through the form (re-run with edits)', () => {
    const input = {
      targetId: 'sim',
      dialect: 'rerank' as const,
      model: 'x',
      prompt: 'query',
      inputs: ['d0', 'd1'],
      topN: 1,
    };
    const f = formFromInput(input, DEFAULT_FORM);
    expect(buildFireInput(f, 'sim', 'openai-chat')).toEqual({ ok: true, value: input });
  });
});
