/**
 * vLLM's preset when the stream gave no usage vLLM's client reads: the run counts the output text
 * with the server's POST /tokenize after the run (tokenize-outputs.ts), over loopback against the
 * simulator (which serves /tokenize in vLLM's and llama.cpp's shape). The audit's case: an in-band
 * error after chunks of 4 tokens (stream interval 4), no usage — vLLM re-tokenizes the text, a count
 * of one per chunk made its per-request TPOT ~4× too high.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeUnder } from '../../shared/runs/summary/definitions.ts';
import { parseRunText } from '../../shared/runs/run-file/parse.ts';
import { rederiveRun } from '../../shared/runs/summary/rederive.ts';
import { summaryText } from '../../shared/runs/summary/text.ts';
import { startSim, type SimServer } from '../sim/index.ts';
import { simTokenize } from '../sim/tokenize.ts';
import { runAgainst, tmpDir } from '../testing/runs.ts';
import { OutputTexts, tokenizeUrl } from './tokenize-outputs.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({
    port: 0,
    decodeStepMs: 1,
    decodeStepPerSeqMs: 0,
    prefillMsPerToken: 0,
    streamInterval: 4,
    fault: 'error-midstream:14',
  });
});
afterAll(() => sim.close());

const prompts = { type: 'synthetic' as const, inputLen: 8, outputLen: 40 };

describe('an in-band error after multi-token chunks, no usage (openai-completions)', () => {
  it('counts each text with the server’s tokenizer; vLLM’s preset takes it and says so; the file keeps it', async () => {
    const out = path.join(tmpDir(), 'tok.jsonl');
    const r = await runAgainst(
      sim,
      { requests: 4, maxConcurrency: 2, prompts, saveText: true, testRequest: false },
      { target: { url: sim.url, dialect: 'openai-completions', model: 'tokenscope-sim' }, outFile: out },
    );
    expect(r.lines).toHaveLength(4);
    for (const l of r.lines) {
      expect(l.error?.code).toBe('error-event');
      expect(l.usage?.completionTokens ?? null).toBeNull();
      const content = l.events.f.filter((f) => (f & 1) !== 0).length;
      const truth = simTokenize(l.text!).length;
      // The sim's tokenizer is its vocabulary: the count is the tokens it streamed, ~4 per chunk.
      expect(l.tokenizedOutputTokens).toBe(truth);
      expect(truth).toBeGreaterThan(2 * content);
      expect(truth).toBe(14); // error-midstream:14 — the sim errs after 14 generated tokens
      const v = outcomeUnder(l, 'vllm', 'openai-completions');
      expect(v).toMatchObject({
        ok: true,
        outputTokens: truth,
        tokenizedByServer: true,
        tokenSource: 'usage-total',
      });
    }
    // The run file has the counts (a `tokenized` line) and a reader puts them back on the lines.
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/"type":"tokenized","via":"http:\/\/127\.0\.0\.1:\d+\/tokenize","shape":"vllm"/);
    const parsed = parseRunText(text);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.value.requests.map((l) => l.tokenizedOutputTokens)).toEqual(
      r.lines.map((l) => l.tokenizedOutputTokens),
    );
    const v = rederiveRun(parsed.value.header, parsed.value.requests, parsed.value.summary, 'vllm').summary;
    expect(v.tokens.outputTokenized).toBe(4);
    expect(summaryText(v)).toMatch(/of them, the server's \/tokenize of the text:\s+4/);
  });
});

describe('a server without /tokenize', () => {
  let bare: http.Server;
  let url = '';
  beforeAll(async () => {
    bare = http.createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"detail":"Not Found"}');
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => bare.close(() => resolve())));

  it('leaves the counts alone: vLLM’s preset labels them estimated', async () => {
    const r = await runAgainst(
      sim,
      { requests: 2, maxConcurrency: 1, prompts, saveText: true, testRequest: false },
      { target: { url: sim.url, dialect: 'openai-completions', model: 'tokenscope-sim' } },
    );
    const texts = new OutputTexts('openai-completions');
    const lines = r.lines.map((l) => ({ ...l, tokenizedOutputTokens: undefined }));
    for (const l of lines) texts.keep(l, { text: l.text!, textCapped: false } as never);
    expect(texts.size).toBe(2);
    expect(await texts.count({ url, dialect: 'openai-completions', model: 'm' })).toBeNull();
    for (const l of lines) {
      expect(l.tokenizedOutputTokens).toBeUndefined();
      expect(outcomeUnder(l, 'vllm', 'openai-completions').tokenSource).toBe('estimated');
    }
  });

  it('the endpoint sits at the root of the target’s origin', () => {
    expect(tokenizeUrl('http://gpu:8000/v1/chat/completions')).toBe('http://gpu:8000/tokenize');
    expect(tokenizeUrl('not a url')).toBeNull();
  });
});
