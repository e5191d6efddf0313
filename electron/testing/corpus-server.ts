/**
 * A server that streams a corpus capture's real bytes back to every POST, its events written in
 * groups — one socket write per group, `gapMs` apart — the way a coalescing server (llama.cpp
 * under load, a proxy that buffers) delivers them: a group's events arrive in one read, so the
 * gaps inside it are coalesced. It answers whatever model was asked for with the capture's own
 * `model`, as llama.cpp does. GET /v1/models lists `models`.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CORPUS_DIR } from './corpus.ts';

export interface CorpusServer {
  url: string;
  /** The request bodies received, parsed. */
  bodies: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * `file`: a capture under test-corpus/sse/; `groups`: how many of its events each write carries,
 * in order (what is left goes in the last write).
 */
export async function startCorpusServer(
  file: string,
  groups: number[],
  gapMs: number,
  models: string[] = ['llama-3.2-1b-instruct-q4_k_m.gguf'],
): Promise<CorpusServer> {
  const events = readFileSync(path.join(CORPUS_DIR, 'sse', file), 'utf8')
    .split(/\n\n/)
    .filter((e) => e.trim())
    .map((e) => e + '\n\n');
  const writes: string[] = [];
  let i = 0;
  for (const g of groups) {
    writes.push(events.slice(i, i + g).join(''));
    i += g;
  }
  if (i < events.length) writes.push(events.slice(i).join(''));
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
      return;
    }
    let body = '';
    req.on('data', (b: Buffer) => (body += b.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(body || '{}') as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let k = 0;
      const next = (): void => {
        res.write(writes[k++]!);
        if (k < writes.length) setTimeout(next, gapMs);
        else res.end();
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
