import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../../shared/request.ts';
import { tgi } from './tgi.ts';
import { corpusText, replay, stringsOf } from '../../testing/dialect-replay.ts';

describe('tgi (/generate_stream) replays the corpus', () => {
  it('tgi-generate-stream.sse: one exact token per event, last event terminal with details', () => {
    const raw = corpusText('tgi-generate-stream.sse');
    const r = replay('tgi-generate-stream.sse');
    expect(r.text).toBe('Deep learning is a subset of machine learning');
    // Oracles: the token texts in the bytes, and the server's own generated_text.
    expect(r.text).toBe(stringsOf(raw, 'text').join(''));
    expect(stringsOf(raw, 'generated_text')).toEqual([r.text]);
    expect(r.content.map((e) => e.tokens)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(r.terminalAt).toBe(7);
    expect(r.finishReason).toBe('length');
    expect(r.usage).toEqual({ promptTokens: 7, completionTokens: 8, totalTokens: 15 });
    expect(r.errors).toEqual([]);
  });

  it('tgi-generate-stream-error.sse: the in-band error with error_type, no terminal', () => {
    const r = replay('tgi-generate-stream-error.sse');
    expect(r.text).toBe('Deep');
    expect(r.errors.map((e) => e.error)).toEqual([
      {
        message:
          'Request failed during generation: Server error: CUDA out of memory. Tried to allocate 2.00 GiB',
        type: 'generation',
      },
    ]);
    expect(r.terminated).toBe(false);
  });

  it('tgi-generate-stream-overloaded.sse: overload arrives as an event with status 200', () => {
    const r = replay('tgi-generate-stream-overloaded.sse');
    expect(r.events).toEqual([
      {
        kind: 'error',
        text: '',
        tokens: null,
        error: { message: 'Model is overloaded', type: 'overloaded' },
      },
    ]);
  });
});

describe('tgi decoder shapes', () => {
  const ev = (o: unknown) => ({ event: 'message', data: JSON.stringify(o) });
  const tok = (index: number, text: string, special = false, last: object | null = null) =>
    ev({
      index,
      token: { id: 1, text, logprob: -0.1, special },
      generated_text: last ? 'done' : null,
      details: last,
    });

  it('keeps a special (EOS) token out of the text and reads eos_token as TGI says it', () => {
    const d = tgi.createDecoder();
    d.decode(tok(1, 'a'));
    const eos = d.decode(
      tok(2, '</s>', true, { finish_reason: 'eos_token', generated_tokens: 2, seed: null, input_length: 3 }),
    );
    expect(eos).toMatchObject({
      kind: 'empty',
      text: '',
      tokens: null,
      terminal: true,
      finishReason: 'eos_token',
      usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
    });
  });

  it('counts an index jump as several tokens (an event lost on the way)', () => {
    const d = tgi.createDecoder();
    expect([d.decode(tok(1, 'a')), d.decode(tok(3, 'b'))].map((e) => e.tokens)).toEqual([1, 2]);
  });

  it('ends without usage when details were not requested', () => {
    const e = tgi
      .createDecoder()
      .decode(
        ev({ index: 1, token: { id: 1, text: 'a', special: false }, generated_text: 'a', details: null }),
      );
    expect(e).toEqual({ kind: 'content', text: 'a', tokens: 1, terminal: true });
  });

  it('rejects an event without a token', () => {
    expect(tgi.createDecoder().decode(ev({ index: 1 })).kind).toBe('invalid');
  });
});

describe('tgi buildBody', () => {
  const spec = (over: Partial<RequestSpec> = {}): RequestSpec => ({
    url: 'http://x',
    dialect: 'tgi',
    model: 'm',
    prompt: 'p',
    ...over,
  });

  it('maps to inputs + parameters with details:true; no ignore_eos/min_tokens', () => {
    const params = {
      maxTokens: 12,
      temperature: 0.7,
      topP: 0.9,
      seed: 3,
      stop: ['\n'],
      ignoreEos: true,
      minTokens: 2,
    };
    expect(tgi.buildBody(spec({ params }))).toEqual({
      inputs: 'p',
      parameters: { max_new_tokens: 12, temperature: 0.7, top_p: 0.9, seed: 3, stop: ['\n'], details: true },
      stream: true,
    });
  });

  it('expresses temperature 0 as greedy and drops top_p 1, which TGI would reject with 422', () => {
    expect(tgi.buildBody(spec({ params: { temperature: 0, topP: 1 } })).parameters).toEqual({
      do_sample: false,
      details: true,
    });
  });
});
