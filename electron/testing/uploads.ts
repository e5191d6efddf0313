/**
 * Uploads to web mode in tests (electron/serve-*.test.ts): a raw HTTP request whose Host, Origin
 * and body are exactly what the test says, and a vLLM `--save-detailed` result of any size to
 * upload (built as text, so tens of MB cost no object per number).
 */
import http from 'node:http';

export interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A raw request to 127.0.0.1:`port` (no Host of its own, no agent). */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string | number>,
  body?: Buffer | string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: target, headers, setHost: false, agent: false },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(parts).toString('utf8'),
            headers: res.headers,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Each request of a detailed result: its output length and inter-token latencies (s), its text if any. */
interface DetailedRequest {
  outputLen: number;
  itls: number[];
  generatedText?: string;
}

/** A vLLM `--save-detailed` result of n requests, all alike but for their TTFTs and start times. */
export function detailedResult(n: number, each: DetailedRequest): string {
  const list = (f: (i: number) => string): string =>
    `[${Array.from({ length: n }, (_, i) => f(i)).join(',')}]`;
  const same = (v: string): string => list(() => v);
  const head = JSON.stringify({
    date: '20261124-101500',
    backend: 'openai-chat',
    model_id: 'm',
    num_prompts: n,
    request_rate: 'inf',
    burstiness: 1.0,
    max_concurrency: 64,
    duration: n / 100,
    completed: n,
    failed: 0,
    total_input_tokens: 10 * n,
    total_output_tokens: each.outputLen * n,
    request_throughput: 100,
    output_throughput: 300,
    total_token_throughput: 1300,
  });
  const text =
    each.generatedText === undefined ? '' : `,"generated_texts":${same(JSON.stringify(each.generatedText))}`;
  return (
    head.slice(0, -1) +
    `,"input_lens":${same('10')},"output_lens":${same(String(each.outputLen))}` +
    `,"ttfts":${list((i) => String(0.05 + (i % 10) / 1000))},"itls":${same(JSON.stringify(each.itls))}` +
    `,"latencies":${same('0.2')},"start_times":${list((i) => String(1000 + i / 100))}` +
    `${text},"errors":${same('""')}}`
  );
}
