import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { discoverModels, parseModelList } from './models.ts';
import { startSim, type SimServer } from '../sim/index.ts';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ port: 0, model: 'my-model' });
});
afterAll(async () => {
  await sim.close();
});

describe('model discovery', () => {
  it('reads /v1/models for OpenAI-style dialects, from a base or a full endpoint URL', async () => {
    for (const url of [sim.url, `${sim.url}/v1`, `${sim.url}/v1/chat/completions`]) {
      const r = await discoverModels(url, 'openai-chat');
      expect(r.ok && r.value).toEqual({ models: ['my-model'], source: '/v1/models' });
    }
  });

  it('reads Ollama /api/tags first for Ollama dialects', async () => {
    const r = await discoverModels(sim.url, 'ollama-chat');
    expect(r.ok && r.value.source).toBe('/api/tags');
    expect(r.ok && r.value.models).toEqual(['my-model:latest']); // Ollama names carry a tag
  });

  it('falls back to the other endpoint, and classifies failures', async () => {
    const srv = http.createServer((req, res) => {
      if (req.url === '/api/tags') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest"}]}');
      } else res.writeHead(404).end('not found');
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const r = await discoverModels(url, 'openai-chat');
    expect(r.ok && r.value).toEqual({ models: ['llama3.2:latest'], source: '/api/tags' });
    await new Promise<void>((r2) => srv.close(() => r2()));
    const down = await discoverModels(url, 'openai-chat');
    expect(!down.ok && down.error.kind).toBe('network');
    const bad = await discoverModels('not a url', 'openai-chat');
    expect(!bad.ok && bad.error.code).toBe('invalid-request');
  });

  it('parses both list shapes and rejects others', () => {
    expect(parseModelList('{"object":"list","data":[{"id":"a"},{"id":"b"}]}')).toEqual(['a', 'b']);
    expect(parseModelList('{"models":[{"name":"x"}]}')).toEqual(['x']);
    expect(parseModelList('{"foo":1}')).toBeNull();
    expect(parseModelList('<html>')).toBeNull();
  });
});
