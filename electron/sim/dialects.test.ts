/**
 * Each dialect's bytes against the corpus framing rules (test-corpus/FORMATS.md §2): prefixes, terminators,
 * content types, and the key order of the chunks compared with the corpus files' own chunks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './index.ts';
import {
  chatBody,
  choice0,
  corpus,
  keys,
  ndjson,
  post,
  sseBlocks,
  sseData,
  sseJson,
} from '../testing/sim.ts';

let sim: SimServer;
beforeAll(async () => {
  // The corpus is vLLM as it starts by default: no --enable-prompt-tokens-details, so a prompt
  // found in the prefix cache (these tests send the same one again and again) adds nothing to usage.
  sim = await startSim({
    decodeStepMs: 2,
    decodeStepPerSeqMs: 0,
    groundTruth: true,
    promptTokensDetails: false,
  });
});
afterAll(() => sim.close());

type Obj = Record<string, unknown>;

describe('vLLM chat completions', () => {
  const ref = sseJson(corpus('vllm-chat.sse'));
  const refFirst = ref[0] as Obj;
  const refMiddle = ref[1] as Obj;
  const refLast = ref[ref.length - 1] as Obj;

  it('frames like vLLM: data: + space, role chunk, finish in the last token chunk, [DONE]', async () => {
    const r = await post(sim, '/v1/chat/completions', chatBody({ max_tokens: 5 }));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    const data = sseData(r.text);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = sseJson(r.text);
    expect(chunks).toHaveLength(6); // role + 5 tokens
    const [first, second] = chunks as [Obj, Obj];
    expect(keys(first)).toEqual(keys(refFirst));
    expect(keys(choice0(first))).toEqual(keys(choice0(refFirst)));
    expect(choice0(first).delta).toEqual({ role: 'assistant', content: '' });
    expect(keys(second)).toEqual(keys(refMiddle));
    expect(keys(choice0(second))).toEqual(keys(choice0(refMiddle)));
    const last = chunks.at(-1) as Obj;
    expect(keys(choice0(last))).toEqual(keys(choice0(refLast)));
    expect(choice0(last)).toMatchObject({ finish_reason: 'length', stop_reason: null });
    expect((choice0(last).delta as Obj).content).not.toBe('');
    for (const c of chunks) {
      expect(c).not.toHaveProperty('usage');
      expect(c.id).toBe(`chatcmpl-${r.headers.get('x-request-id')}`);
      expect(c.created).toBe(first.created);
    }
  });

  it('include_usage adds one choices:[] chunk with prompt,total,completion before [DONE]', async () => {
    const r = await post(
      sim,
      '/v1/chat/completions',
      chatBody({ max_tokens: 4, stream_options: { include_usage: true } }),
    );
    const refUsage = sseJson(corpus('vllm-chat-include-usage.sse')).at(-1) as Obj;
    const chunks = sseJson(r.text);
    const usage = chunks.at(-1) as Obj;
    expect(keys(usage)).toEqual(keys(refUsage));
    expect(usage.choices).toEqual([]);
    expect(keys(usage.usage)).toEqual(['prompt_tokens', 'total_tokens', 'completion_tokens']);
    expect(usage.usage).toMatchObject({ completion_tokens: 4 });
    for (const c of chunks.slice(0, -1)) expect(c).not.toHaveProperty('usage');
    expect(sseData(r.text).at(-1)).toBe('[DONE]');
  });

  it('continuous_usage_stats puts cumulative usage in every chunk, role chunk at 0', async () => {
    const r = await post(
      sim,
      '/v1/chat/completions',
      chatBody({ max_tokens: 4, stream_options: { include_usage: true, continuous_usage_stats: true } }),
    );
    const ref = sseJson(corpus('vllm-chat-continuous-usage.sse'));
    const chunks = sseJson(r.text);
    expect(keys(chunks[0])).toEqual(keys(ref[0]));
    const counts = chunks.map((c) => (c.usage as Obj).completion_tokens);
    expect(counts).toEqual([0, 1, 2, 3, 4, 4]);
    const prompt = (chunks[0]?.usage as Obj).prompt_tokens as number;
    expect(prompt).toBe(16); // BOS + template (5) + 6 text tokens + generation prompt (4)
    expect((chunks[2]?.usage as Obj).total_tokens).toBe(prompt + 2);
  });

  it('a stop ends with an empty delta carrying the EOS token, counted in usage', async () => {
    let found: Obj[] | null = null;
    for (let seed = 0; seed < 40 && !found; seed++) {
      const r = await post(
        sim,
        '/v1/chat/completions',
        chatBody({ max_tokens: 64, ignore_eos: false, seed, stream_options: { include_usage: true } }),
      );
      const chunks = sseJson(r.text);
      if (choice0(chunks.at(-2) as Obj).finish_reason === 'stop') found = chunks;
    }
    expect(found).not.toBeNull();
    const chunks = found as Obj[];
    const last = chunks.at(-2) as Obj;
    expect(choice0(last).delta).toEqual({ content: '' });
    expect(choice0(last).stop_reason).toBeNull();
    const usage = (chunks.at(-1) as Obj).usage as Obj;
    expect(usage.completion_tokens).toBe(chunks.length - 2); // content chunks incl. the EOS one
  });

  it('answers stream:false with a chat.completion JSON', async () => {
    const r = await post(sim, '/v1/chat/completions', chatBody({ stream: false, max_tokens: 3 }));
    expect(r.headers.get('content-type')).toBe('application/json');
    const body = JSON.parse(r.text) as Obj;
    expect(body.object).toBe('chat.completion');
    expect(body.usage).toMatchObject({ completion_tokens: 3 });
    expect(keys(body.usage).slice(0, 3)).toEqual(['prompt_tokens', 'total_tokens', 'completion_tokens']);
  });
});

describe('vLLM completions', () => {
  it('has every field incl. "usage":null, no role chunk, usage chunk with choices:[]', async () => {
    const ref = sseJson(corpus('vllm-completions-include-usage.sse'));
    const r = await post(sim, '/v1/completions', {
      prompt: 'The capital of France is',
      max_tokens: 4,
      ignore_eos: true,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const chunks = sseJson(r.text);
    expect(chunks).toHaveLength(5);
    expect(keys(chunks[0])).toEqual(keys(ref[0]));
    expect(keys(choice0(chunks[0] as Obj))).toEqual(keys(choice0(ref[0] as Obj)));
    expect(r.text).toContain('"usage":null}');
    expect((chunks[0] as Obj).id).toMatch(/^cmpl-/);
    expect(choice0(chunks[3] as Obj)).toMatchObject({ finish_reason: 'length', stop_reason: null });
    expect(keys(chunks[4])).toEqual(keys(ref.at(-1)));
    expect(sseData(r.text).at(-1)).toBe('[DONE]');
  });
});

describe('TGI /generate_stream', () => {
  it('writes data: without space, index from 1, details on the last event, no [DONE]', async () => {
    const ref = sseJson(corpus('tgi-generate-stream.sse'), 'data:');
    const r = await post(sim, '/generate_stream', {
      inputs: 'Deep learning is',
      parameters: { max_new_tokens: 5, details: true },
      ignore_eos: true,
    });
    expect(r.headers.get('content-type')).toBe('text/event-stream');
    for (const b of sseBlocks(r.text)) expect(b.startsWith('data:{')).toBe(true);
    expect(r.text).not.toContain('[DONE]');
    const events = sseJson(r.text, 'data:');
    expect(events.map((e) => e.index)).toEqual([1, 2, 3, 4, 5]);
    expect(keys(events[0])).toEqual(keys(ref[0]));
    expect(keys((events[0] as Obj).token)).toEqual(keys((ref[0] as Obj).token));
    const last = events.at(-1) as Obj;
    expect(keys(last.details)).toEqual(keys((ref.at(-1) as Obj).details));
    expect(last.generated_text).toBe(events.map((e) => (e.token as Obj).text).join(''));
    expect(last.details).toMatchObject({ finish_reason: 'length', generated_tokens: 5, input_length: 4 });
  });
});

describe('llama.cpp /completion', () => {
  it('sends partials with tokens_predicted and a final stop:true event with timings', async () => {
    const ref = sseJson(corpus('llamacpp-completion.sse'));
    const r = await post(sim, '/completion', {
      prompt: 'Hello, who are you?',
      n_predict: 4,
      stream: true,
      ignore_eos: true,
    });
    expect(r.headers.get('content-type')).toBe('text/event-stream');
    expect(r.text).not.toContain('[DONE]');
    const events = sseJson(r.text);
    expect(events).toHaveLength(5);
    expect(keys(events[0])).toEqual(keys(ref[0]));
    expect(events.slice(0, 4).map((e) => e.tokens_predicted)).toEqual([1, 2, 3, 4]);
    expect((events[0] as Obj).tokens_evaluated).toBe(7);
    const last = events.at(-1) as Obj;
    const refLast = ref.at(-1) as Obj;
    expect(keys(last)).toEqual(keys(refLast));
    expect(keys(last.timings)).toEqual(keys(refLast.timings));
    expect(last).toMatchObject({
      stop: true,
      content: '',
      tokens: [],
      stop_type: 'limit',
      tokens_predicted: 4,
    });
  });

  it('an EOS ending sends the EOS token as an empty partial, then stop_type eos', async () => {
    let events: Obj[] = [];
    for (let seed = 0; seed < 40; seed++) {
      events = sseJson(
        (await post(sim, '/completion', { prompt: 'Hi', n_predict: 64, stream: true, seed })).text,
      );
      if ((events.at(-1) as Obj).stop_type === 'eos') break;
    }
    const [eos, final] = events.slice(-2) as [Obj, Obj];
    expect(final.stop_type).toBe('eos');
    expect(eos).toMatchObject({
      content: '',
      tokens: [128009],
      stop: false,
      tokens_predicted: events.length - 1,
    });
    expect(final.tokens_predicted).toBe(events.length - 1);
  });
});

describe('Ollama NDJSON', () => {
  it('/api/generate: one Go-encoded object per line, done:true with ns durations last', async () => {
    const ref = ndjson(corpus('ollama-api-generate.ndjson'));
    const r = await post(sim, '/api/generate', {
      model: 'tokenscope-sim',
      prompt: 'What should I use for layout?',
      options: { num_predict: 3 },
      ignore_eos: true,
    });
    expect(r.headers.get('content-type')).toBe('application/x-ndjson');
    expect(r.text.endsWith('}\n')).toBe(true);
    const lines = ndjson(r.text);
    expect(lines).toHaveLength(4);
    expect(keys(lines[0])).toEqual(keys(ref[0]));
    expect(keys(lines.at(-1))).toEqual(keys(ref.at(-1)));
    expect((lines[0] as Obj).created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
    const final = lines.at(-1) as Obj;
    expect(final).toMatchObject({ done: true, done_reason: 'length', eval_count: 3, response: '' });
    expect(Number.isInteger(final.eval_duration) && (final.eval_duration as number) > 1e6).toBe(true);
    expect(final.total_duration as number).toBeGreaterThanOrEqual(final.eval_duration as number);
  });

  it('/api/chat: message deltas, final line with metrics and no context', async () => {
    const ref = ndjson(corpus('ollama-api-chat.ndjson'));
    const r = await post(sim, '/api/chat', {
      model: 'tokenscope-sim:latest',
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
      options: { num_predict: 3 },
      ignore_eos: true,
    });
    const lines = ndjson(r.text);
    expect(keys(lines[0])).toEqual(keys(ref[0]));
    expect(keys(lines.at(-1))).toEqual(keys(ref.at(-1)));
    expect((lines[0] as Obj).model).toBe('tokenscope-sim:latest');
  });
});

describe('OpenAI Responses', () => {
  it('emits the event sequence with event == data.type and alphabetical keys', async () => {
    const r = await post(sim, '/v1/responses', {
      model: 'tokenscope-sim',
      input: 'Hi',
      max_output_tokens: 3,
      stream: true,
      ignore_eos: true,
    });
    const blocks = sseBlocks(r.text);
    const events = blocks.map((b) => {
      const [ev = '', data = ''] = b.split('\n');
      return { type: ev.replace('event: ', ''), data: JSON.parse(data.replace('data: ', '')) as Obj };
    });
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    for (const [i, e] of events.entries()) {
      expect(e.data.type).toBe(e.type);
      expect(e.data.sequence_number).toBe(i);
      expect(keys(e.data)).toEqual([...keys(e.data)].sort());
    }
    expect(((events.at(-1)?.data.response as Obj).usage as Obj).output_tokens).toBe(3);
  });
});

describe('Anthropic Messages', () => {
  /** `event: <type>` + `data: <json>` blocks, parsed. */
  const events = (text: string) =>
    sseBlocks(text).map((b) => {
      const [ev = '', data = ''] = b.split('\n');
      expect(ev.startsWith('event: ') && data.startsWith('data: ')).toBe(true);
      return { type: ev.slice('event: '.length), raw: data.slice('data: '.length) };
    });
  const body = (over: Obj = {}) => ({
    model: 'tokenscope-sim',
    system: 'Be brief.',
    messages: [{ role: 'user', content: 'Hi' }],
    max_tokens: 3,
    stream: true,
    ignore_eos: true,
    ...over,
  });

  it('emits the corpus sequence: message_start, block start, ping, deltas, stop, message_delta, message_stop', async () => {
    const ref = events(corpus('anthropic-messages.sse'));
    const r = await post(sim, '/v1/messages', body());
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const evs = events(r.text);
    expect(evs.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(r.text).not.toContain('[DONE]');
    // ping is spaced JSON, byte for byte as Anthropic sends it.
    expect(evs[2]!.raw).toBe(ref.find((e) => e.type === 'ping')!.raw);
    const data = evs.map((e) => JSON.parse(e.raw) as Obj);
    for (const [i, d] of data.entries()) expect(d.type).toBe(evs[i]!.type);
    const refStart = JSON.parse(ref[0]!.raw) as Obj;
    const message = data[0]!.message as Obj;
    expect(keys(data[0])).toEqual(keys(refStart));
    expect(keys(message)).toEqual(keys(refStart.message));
    expect(keys(message.usage)).toEqual(keys((refStart.message as Obj).usage));
    expect(message.id).toBe(`msg_${r.headers.get('x-request-id')}`);
    // The top-level system prompt counts as input: more than the user's "Hi" alone.
    const alone = events((await post(sim, '/v1/messages', body({ system: undefined }))).text);
    const aloneInput = ((JSON.parse(alone[0]!.raw) as { message: { usage: Obj } }).message.usage
      .input_tokens ?? 0) as number;
    expect((message.usage as Obj).input_tokens).toBeGreaterThan(aloneInput);
    expect(aloneInput).toBeGreaterThan(0);
    expect(keys(data[3])).toEqual(keys(JSON.parse(ref[3]!.raw)));
    expect(data.slice(3, 6).map((d) => (d.delta as Obj).type)).toEqual([
      'text_delta',
      'text_delta',
      'text_delta',
    ]);
    expect(data[7]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { output_tokens: 3 },
    });
    const truth = sim.groundTruth().filter((g) => g.requestId === r.headers.get('x-request-id'));
    expect(truth.map((g) => g.kind).at(-1)).toBe('done');
    expect(truth.reduce((n, g) => n + g.tokens, 0)).toBe(3);
  });

  it('ends with end_turn when the model stops, its EOS token counted in output_tokens', async () => {
    let data: Obj[] = [];
    for (let seed = 0; seed < 40; seed++) {
      const r = await post(sim, '/v1/messages', body({ max_tokens: 64, ignore_eos: false, seed }));
      data = events(r.text).map((e) => JSON.parse(e.raw) as Obj);
      if ((data.at(-2)!.delta as Obj).stop_reason === 'end_turn') break;
    }
    const end = data.at(-2)!;
    expect((end.delta as Obj).stop_reason).toBe('end_turn');
    const deltas = data.filter((d) => d.type === 'content_block_delta').length;
    expect((end.usage as Obj).output_tokens).toBe(deltas + 1); // the EOS rides on content_block_stop
  });

  it('requires max_tokens, as the API does, and answers stream:false with a Message', async () => {
    const bad = await post(sim, '/v1/messages', body({ max_tokens: undefined }));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: Field required' },
    });
    const whole = await post(sim, '/v1/messages', body({ stream: false }));
    expect(whole.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(whole.text)).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text' }],
      stop_reason: 'max_tokens',
      usage: { output_tokens: 3 },
    });
  });
});
