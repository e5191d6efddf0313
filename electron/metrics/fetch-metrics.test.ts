// /metrics compressed as Prometheus client libraries do when asked: decoded, bounded on the
// decoded size (a gzip bomb stops at the limit), and an encoding Tokenscope cannot read is said.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchMetrics } from './fetch-metrics.ts';
import { parsePrometheus } from '../../shared/metrics/prom-parse.ts';

const BODY = Array.from({ length: 2000 }, (_, i) => `vllm:num_requests_running{i="${i}"} ${i}\n`).join('');
let srv: http.Server;
let base = '';
const asked: string[] = [];

beforeAll(async () => {
  srv = http.createServer((req, res) => {
    const ae = String(req.headers['accept-encoding'] ?? '');
    asked.push(ae);
    if (req.url === '/bomb') {
      // ~1 GB of zeros in ~1 MB of gzip.
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      const z = zlib.createGzip({ level: 9 });
      z.pipe(res);
      const zeros = Buffer.alloc(1024 * 1024);
      let n = 0;
      const more = (): void => {
        while (n < 1024) {
          n++;
          if (!z.write(zeros)) return void z.once('drain', more);
        }
        z.end();
      };
      res.on('close', () => z.destroy());
      more();
      return;
    }
    if (req.url === '/brotli') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' });
      return void res.end(zlib.brotliCompressSync(BODY));
    }
    if (req.url === '/deflate') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' });
      return void res.end(zlib.deflateSync(BODY));
    }
    // As prometheus_client does: gzip only when the client says it takes it.
    if (/\bgzip\b/.test(ae)) {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(BODY));
    } else {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(BODY);
    }
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
});
afterAll(async () => {
  srv.closeAllConnections();
  await new Promise((r) => srv.close(r));
});

const opts = { timeoutMs: 20_000, maxBodyBytes: 8 * 1024 * 1024 };

describe('compressed /metrics', () => {
  it('asks for gzip, decodes it, and parses the same families as the plain body', async () => {
    const r = await fetchMetrics(new URL(`${base}/metrics`), opts);
    expect(asked.at(-1)).toMatch(/gzip/);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.encoding).toBe('gzip');
    expect(r.value.body).toBe(BODY);
    expect(parsePrometheus(r.value.body).families[0]!.samples).toHaveLength(2000);
  });

  it('decodes deflate too', async () => {
    const r = await fetchMetrics(new URL(`${base}/deflate`), opts);
    expect(r.ok && r.value.body === BODY).toBe(true);
  });

  it('a gzip bomb stops at the decoded size limit with a clear error', { timeout: 30_000 }, async () => {
    const r = await fetchMetrics(new URL(`${base}/bomb`), { ...opts, maxBodyBytes: 4 * 1024 * 1024 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ kind: 'protocol', code: 'bad-frame' });
    expect(r.error.message).toMatch(/larger than 4194304 bytes once decoded \(gzip\)/);
  });

  it('an encoding it cannot read is said, not parsed as garbage', async () => {
    const r = await fetchMetrics(new URL(`${base}/brotli`), opts);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/Content-Encoding "br", which Tokenscope cannot decode/);
  });
});
