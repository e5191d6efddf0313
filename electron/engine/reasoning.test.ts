// Reasoning kept apart from the answer, end to end: corpus bytes through the engine's decoder set
// EV_REASONING on exactly the reasoning events, and the simulator's reasoning mode, fired through
// the engine in each dialect, gives a TTFAT equal to the sim's own record of its first answer write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireRequest } from './client.ts';
import { StreamDecoder } from './stream-decoder.ts';
import { getDialect } from './dialects/index.ts';
import { newRecord, type RequestRecord } from '../../shared/record.ts';
import { EV_CONTENT, EV_REASONING } from '../../shared/request.ts';
import type { DialectId } from '../../shared/dialects.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';
import { readCorpus } from '../testing/framing-corpus.ts';
import { CORPUS_DIALECT } from '../testing/dialect-replay.ts';
import { io } from './io/io-engine.ts';
import { startSim, type SimServer } from '../sim/index.ts';

/** A corpus body through the engine's StreamDecoder, one socket read per line, 10 ms apart. */
function replay(name: string): RequestRecord {
  const dialect = getDialect(CORPUS_DIALECT[name]!);
  const rec = newRecord({ id: name, url: '', dialect: dialect.id, model: '', startedAtWall: 0 });
  const dec = new StreamDecoder(dialect, rec);
  const bytes = readCorpus(name);
  let start = 0;
  let read = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a) continue;
    dec.pushRead(bytes.subarray(start, i + 1), read * 10, read);
    read++;
    start = i + 1;
  }
  if (start < bytes.length) dec.pushRead(bytes.subarray(start), read * 10, read++);
  dec.end(read * 10, read);
  rec.phases.endMs = read * 10;
  dec.finalize();
  return rec;
}

const contentFlags = (r: RequestRecord): number[] => {
  const out: number[] = [];
  for (let i = 0; i < r.events.n; i++)
    if (r.events.flags[i]! & EV_CONTENT) out.push(r.events.flags[i]! & EV_REASONING);
  return out;
};

describe('EV_REASONING from real bytes', () => {
  it('Ollama thinking: the thinking lines are reasoning, the content lines the answer', () => {
    const r = replay('ollama-api-chat-thinking.ndjson');
    expect(contentFlags(r)).toEqual([EV_REASONING, EV_REASONING, EV_REASONING, EV_REASONING, 0, 0]);
    expect(r.reasoning).toBe('Let me think.');
    expect(r.text).toBe('Hi!');
    const s = computeRequestStats(r);
    // Lines 1–4 are thinking, line 5 ("Hi") the answer: one read per line, 10 ms apart.
    expect(s.ttftMs).toBe(0);
    expect(s.firstReasoningMs).toBe(0);
    expect(s.firstAnswerMs).toBe(40);
    // eval_count 7 (thinking included, Ollama has no separate count): split by the tokenizer's
    // ratio of "Let me think." (4) to "Hi!" (2) → 5 and 2, marked estimated.
    expect(s.outputTokens).toBe(7);
    expect(s.reasoningTokens).toBe(5);
    expect(s.answerTokens).toBe(2);
    expect(s.reasoningTokensExact).toBe(false);
  });

  it('vLLM Responses reasoning_text deltas are reasoning; no answer yet, so no TTFAT', () => {
    const r = replay('vllm-responses-excerpt.sse');
    expect(contentFlags(r)).toEqual([EV_REASONING, EV_REASONING, EV_REASONING]);
    const s = computeRequestStats(r);
    // An SSE event completes with its blank line: the third line read, at 20 ms.
    expect(s.firstReasoningMs).toBe(20);
    expect(s.firstAnswerMs).toBeNull();
    expect(s.reasoningTokens).toBe(3);
    expect(s.answerTokens).toBe(0);
  });

  it.each([
    'sglang-chat-include-usage.sse',
    'openai-responses.sse',
    'anthropic-messages.sse',
    'ollama-api-chat.ndjson',
  ])(
    '%s: no reasoning (SGLang\'s "reasoning_content":null, Responses\' reasoning_tokens 0): nothing flagged, no split',
    (name) => {
      const r = replay(name);
      expect(contentFlags(r).every((f) => f === 0)).toBe(true);
      expect(contentFlags(r).length).toBeGreaterThan(0);
      const s = computeRequestStats(r);
      expect(s.reasoningTokens).toBeNull();
      expect(s.firstReasoningMs).toBeNull();
      expect(s.firstAnswerMs).toBe(s.ttftMs); // without reasoning the answer's first token is TTFT's
    },
  );
});

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({
    port: 0,
    decodeStepMs: 4,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
    jitter: 0,
    groundTruth: true,
    reasoningTokens: 12,
  });
});
afterAll(async () => {
  await sim.close();
  await io().close();
});

// [dialect, whether it reports the reasoning count (then the split is exact)]
const DIALECTS: [DialectId, boolean][] = [
  ['openai-chat', true],
  ['openai-responses', true],
  ['anthropic-messages', false],
  ['ollama-chat', false],
  ['ollama-generate', false],
];

describe('the simulator reasoning mode through the engine', () => {
  it.each(DIALECTS)(
    '%s: TTFAT is the sim first answer write; 12 reasoning tokens',
    async (dialect, exact) => {
      const rec = await fireRequest({
        url: sim.url,
        dialect,
        model: dialect.startsWith('ollama') ? 'tokenscope-sim:latest' : 'tokenscope-sim',
        prompt: `reasoning round trip ${dialect}`,
        params: { maxTokens: 30, ignoreEos: true },
      });
      expect(rec.error).toBeNull();
      const s = computeRequestStats(rec);
      const truth = sim.groundTruth().filter((g) => g.requestId === rec.serverRequestId);
      const answer = truth.find((g) => g.firstAnswer);
      expect(answer).toBeDefined();
      // Same process, same clock: the answer's arrival is its write plus transport, never before it.
      const arrival = rec.startMono! + s.firstAnswerMs!;
      expect(arrival - answer!.tMs).toBeGreaterThanOrEqual(-0.5);
      expect(arrival - answer!.tMs).toBeLessThan(5);
      // 12 reasoning tokens at one per 4-ms step come before the answer.
      expect(s.firstAnswerMs! - s.firstReasoningMs!).toBeGreaterThan(11 * 4 * 0.8);
      expect(s.ttftMs).toBe(s.firstReasoningMs);
      expect(s.outputTokens).toBe(30);
      expect(s.reasoningTokensExact).toBe(exact);
      if (exact) {
        expect(s.reasoningTokens).toBe(12);
        expect(s.answerTokens).toBe(18);
      } else {
        // Estimated from the texts' tokenizer counts: near the truth, and the two add up.
        expect(Math.abs(s.reasoningTokens! - 12)).toBeLessThanOrEqual(3);
        expect(s.reasoningTokens! + s.answerTokens!).toBe(30);
      }
      // The ground truth's reasoning tokens are those of the EV_REASONING events, write for write.
      let flagged = 0;
      for (let i = 0; i < rec.events.n; i++)
        if (rec.events.flags[i]! & EV_REASONING) flagged += rec.events.tokens[i]!;
      expect(truth.reduce((n, g) => n + (g.reasoningTokens ?? 0), 0)).toBe(12);
      expect(flagged).toBe(12);
    },
  );

  it('a request asks for its own reasoning length (sim_reasoning_tokens), 0 for none', async () => {
    const none = await fireRequest({
      url: sim.url,
      dialect: 'openai-chat',
      model: 'tokenscope-sim',
      prompt: 'no reasoning',
      params: { maxTokens: 10, ignoreEos: true },
      extraBody: { sim_reasoning_tokens: 0 },
    });
    const s = computeRequestStats(none);
    expect(s.reasoningTokens).toBeNull();
    expect(s.firstAnswerMs).toBe(s.ttftMs);
    const three = await fireRequest({
      url: sim.url,
      dialect: 'openai-chat',
      model: 'tokenscope-sim',
      prompt: 'short reasoning',
      params: { maxTokens: 10, ignoreEos: true },
      extraBody: { sim_reasoning_tokens: 3 },
    });
    expect(computeRequestStats(three).reasoningTokens).toBe(3);
  });
});
