// Round trip: the simulator's /v1/messages bytes read back by the anthropic-messages decoder (at
// every byte split) and by the whole engine, so the sim and the decoder agree on the wire format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestSpec } from '../../../shared/request.ts';
import { computeRequestStats } from '../../../shared/stats/request-stats.ts';
import { startSim, type SimServer } from '../../sim/index.ts';
import { fireRequest } from '../client.ts';
import { io } from '../io/io-engine.ts';
import { framesOf, replayFrames, type Replay } from '../../testing/dialect-replay.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, decodeStepMs: 1, decodeStepPerSeqMs: 0, prefillMsPerToken: 0 });
});
afterAll(async () => {
  await sim.close();
  await io().close();
});

async function simBytes(body: Record<string, unknown>, fault?: string): Promise<Uint8Array> {
  const r = await fetch(`${sim.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(fault ? { 'x-sim-fault': fault } : {}) },
    body: JSON.stringify({
      model: 'tokenscope-sim',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      ...body,
    }),
  });
  return new Uint8Array(await r.arrayBuffer());
}

/** The replay of the whole body, after checking every two-read split decodes the same. */
function replayAtEverySplit(bytes: Uint8Array): Replay {
  const whole = replayFrames('anthropic-messages', framesOf('anthropic-messages', [bytes]));
  const expected = JSON.stringify(whole.events);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const reads = [bytes.subarray(0, cut), bytes.subarray(cut)];
    const got = replayFrames('anthropic-messages', framesOf('anthropic-messages', reads));
    if (JSON.stringify(got.events) !== expected) expect.fail(`differs when cut at byte ${cut}`);
  }
  return whole;
}

describe('the simulator’s Messages stream, decoded', () => {
  it('cut by max_tokens: text, stop_reason max_tokens, usage, message_stop', async () => {
    const r = replayAtEverySplit(await simBytes({ max_tokens: 5, ignore_eos: true }));
    expect(r.invalid).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(r.content).toHaveLength(5);
    expect(r.text).toBe(r.content.map((e) => e.text).join(''));
    expect(r.finishReason).toBe('max_tokens');
    expect(r.usage?.completionTokens).toBe(5);
    expect(r.usage!.promptTokens).toBeGreaterThan(0);
    expect(r.usage!.totalTokens).toBe(r.usage!.promptTokens! + 5);
    expect(r.terminalAt).toBe(r.events.length - 1);
  });

  it('the mid-stream error: a server error after the text that came first', async () => {
    const r = replayAtEverySplit(await simBytes({ max_tokens: 20, ignore_eos: true }, 'error-midstream:3'));
    expect(r.content).toHaveLength(3);
    expect(r.errors.map((e) => e.error)).toEqual([{ message: 'Overloaded', type: 'overloaded_error' }]);
    expect(r.terminated).toBe(false);
  });
});

describe('the simulator’s Messages stream through the engine', () => {
  const spec = (over: Partial<RequestSpec> = {}): RequestSpec => ({
    url: sim.url,
    dialect: 'anthropic-messages',
    model: 'tokenscope-sim',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Tell me about lighthouses.' },
    ],
    params: { maxTokens: 8, ignoreEos: true },
    ...over,
  });

  it('counts the usage total, keeps max_tokens, agrees with the ground truth', async () => {
    const rec = await fireRequest(spec());
    expect(rec.error).toBeNull();
    expect(rec.terminated).toBe(true);
    expect(rec.finishReason).toBe('max_tokens');
    const s = computeRequestStats(rec);
    expect(s.tokenSource).toBe('usage-total');
    expect(s.outputTokens).toBe(8);
    expect(s.contentEvents).toBe(8);
    // message_start comes first, with no token in it (one socket read may carry both: equal stamps).
    expect(s.ttftMs!).toBeGreaterThanOrEqual(s.firstEventMs!);
  });

  it('a mid-stream error is server/error-event with the partial text kept; no message_stop is truncated', async () => {
    const err = await fireRequest(spec({ headers: { 'x-sim-fault': 'error-midstream:4' } }));
    expect(err.error).toMatchObject({ kind: 'server', code: 'error-event', message: 'Overloaded' });
    expect(err.text.length).toBeGreaterThan(0);
    const cut = await fireRequest(spec({ headers: { 'x-sim-fault': 'no-done' } }));
    expect(cut.error).toMatchObject({ kind: 'protocol', code: 'truncated' });
    expect(cut.error!.message).toContain('message_stop');
  });

  it('a non-streamed Message is kept as text, marked not streamed', async () => {
    const rec = await fireRequest(spec({ headers: { 'x-sim-fault': 'no-stream' } }));
    expect(rec.error).toMatchObject({ kind: 'protocol', code: 'not-streamed' });
    expect(rec.text.length).toBeGreaterThan(0);
    expect(rec.finishReason).toBe('max_tokens');
    expect(rec.usage?.completionTokens).toBe(8);
  });
});
