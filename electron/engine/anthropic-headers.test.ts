// Anthropic's API wants its key as `x-api-key` and an `anthropic-version`, on the stream and on
// `GET /v1/models` alike: checked on the wire, against a server that answers with the corpus bytes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTHROPIC_VERSION, type DialectId } from '../../shared/dialects.ts';
import { readCorpus } from '../testing/framing-corpus.ts';
import { fireRequest } from './client.ts';
import { DEFAULT_MAX_TOKENS } from './dialects/anthropic-messages.ts';
import { io } from './io/io-engine.ts';
import { discoverModels, parseModelList } from './models.ts';

/** Anthropic's model list shape (its API reference, "List Models"). */
const ANTHROPIC_MODELS = JSON.stringify({
  data: [
    {
      id: 'claude-sonnet-4-20250514',
      type: 'model',
      display_name: 'Claude Sonnet 4',
      created_at: '2025-05-22T00:00:00Z',
    },
    {
      id: 'claude-3-opus-latest',
      type: 'model',
      display_name: 'Claude Opus 3',
      created_at: '2024-02-29T00:00:00Z',
    },
  ],
  has_more: false,
  first_id: 'claude-sonnet-4-20250514',
  last_id: 'claude-3-opus-latest',
});

let server: http.Server;
let base = '';
const seen: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const entry = { path: req.url ?? '', headers: req.headers, body: '' };
    seen.push(entry);
    req.setEncoding('utf8');
    req.on('data', (c: string) => (entry.body += c));
    req.on('end', () => {
      if (req.url === '/v1/models')
        return res.writeHead(200, { 'content-type': 'application/json' }).end(ANTHROPIC_MODELS);
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.end(Buffer.from(readCorpus('anthropic-messages.sse')));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await io().close();
});

function lastRequest(path: string): (typeof seen)[number] {
  const r = seen.filter((s) => s.path === path).at(-1);
  if (!r) throw new Error(`no request to ${path}`);
  return r;
}
const last = (path: string): http.IncomingHttpHeaders => lastRequest(path).headers;

const fire = (dialect: DialectId, headers?: Record<string, string>) =>
  fireRequest({
    url: base,
    dialect,
    model: 'claude-3-opus-latest',
    prompt: 'hi',
    apiKey: 'sk-ant-test-1',
    headers,
  });

describe('anthropic-messages headers', () => {
  it('the stream goes with x-api-key and anthropic-version, never a Bearer token', async () => {
    const rec = await fire('anthropic-messages');
    const h = last('/v1/messages');
    expect(h['x-api-key']).toBe('sk-ant-test-1');
    expect(h['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(h.authorization).toBeUndefined();
    // ...and the corpus bytes it got back decode into the record.
    expect(rec.error).toBeNull();
    expect(rec.text).toBe('Hello there!');
    expect(rec.finishReason).toBe('end_turn');
    expect(rec.usage).toEqual({ promptTokens: 11, completionTokens: 6, totalTokens: 17 });
    // The body has the max_tokens the API requires; the key never reaches the record.
    expect(JSON.parse(lastRequest('/v1/messages').body)).toMatchObject({
      max_tokens: DEFAULT_MAX_TOKENS,
      stream: true,
    });
    expect(JSON.stringify(rec)).not.toContain('sk-ant-test-1');
  });

  it('an anthropic-version the user set (any case) is sent as given, not twice', async () => {
    await fire('anthropic-messages', { 'Anthropic-Version': '2099-01-01' });
    expect(last('/v1/messages')['anthropic-version']).toBe('2099-01-01');
  });

  it('GET /v1/models goes with the same headers, and Anthropic’s list is read', async () => {
    const r = await discoverModels(base, 'anthropic-messages', { apiKey: 'sk-ant-test-2' });
    expect(r.ok && r.value).toEqual({
      models: ['claude-sonnet-4-20250514', 'claude-3-opus-latest'],
      source: '/v1/models',
    });
    const h = last('/v1/models');
    expect(h['x-api-key']).toBe('sk-ant-test-2');
    expect(h['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(h.authorization).toBeUndefined();
    expect(parseModelList(ANTHROPIC_MODELS)).toEqual(['claude-sonnet-4-20250514', 'claude-3-opus-latest']);
  });

  it('other dialects keep Authorization: Bearer and send no anthropic-version', async () => {
    await discoverModels(base, 'openai-chat', { apiKey: 'sk-3' });
    const h = last('/v1/models');
    expect(h.authorization).toBe('Bearer sk-3');
    expect(h['x-api-key']).toBeUndefined();
    expect(h['anthropic-version']).toBeUndefined();
  });
});
