/**
 * The Prometheus API client without a Prometheus: JSON shapes (matrix, vector, scalar, NaN/±Inf
 * strings), error classification over real HTTP on 127.0.0.1:0, and the fleet fan-out. The
 * same paths against a real Prometheus are in prom-api.prometheus.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseQueryResponse } from './prom-api-json.ts';
import { PromApiClient, queryFleetRange } from './prom-api.ts';
import { closedPort, serveOnce } from '../testing/cli.ts';

const ok = (resultType: string, result: unknown): string =>
  JSON.stringify({ status: 'success', data: { resultType, result } });

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

describe('parseQueryResponse', () => {
  it('reads matrix values, including "NaN", "+Inf", "-Inf" and exponents; times stay seconds', () => {
    const body = ok('matrix', [
      {
        metric: { job: 'a' },
        values: [
          [1700000000.5, '1'],
          [1700000001.5, 'NaN'],
          [1700000002.5, '+Inf'],
        ],
      },
      {
        metric: {},
        values: [
          [1700000000.5, '-Inf'],
          [1700000001.5, '1.5e+06'],
        ],
      },
    ]);
    const r = parseQueryResponse(200, body, 'application/json');
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.resultType).toBe('matrix');
    expect(r.value.series[0]?.metric).toEqual({ job: 'a' });
    const v = r.value.series[0]?.points.map((p) => p.v);
    expect(v?.[0]).toBe(1);
    expect(v?.[1]).toBeNaN();
    expect(v?.[2]).toBe(Infinity);
    expect(r.value.series[1]?.points).toEqual([
      { t: 1700000000.5, v: -Infinity },
      { t: 1700000001.5, v: 1.5e6 },
    ]);
  });

  it('reads vectors (native-histogram samples carry no float), scalars, and warnings', () => {
    const vec = parseQueryResponse(
      200,
      JSON.stringify({
        status: 'success',
        data: {
          resultType: 'vector',
          result: [
            { metric: { a: 'b' }, value: [10, '2'] },
            { metric: {}, histogram: [10, {}] },
          ],
        },
        warnings: ['too many samples'],
      }),
      null,
    );
    expect(vec).toMatchObject({ ok: true, value: { warnings: ['too many samples'] } });
    if (vec.ok) expect(vec.value.series.map((s) => s.points)).toEqual([[{ t: 10, v: 2 }], []]);
    const sc = parseQueryResponse(200, ok('scalar', [12.25, '0.5']), null);
    expect(sc).toEqual({
      ok: true,
      value: { resultType: 'scalar', series: [{ metric: {}, points: [{ t: 12.25, v: 0.5 }] }], warnings: [] },
    });
  });

  it.each([
    ['<html>no</html>', /Not JSON/],
    ['{"status":"success"}', /Not a Prometheus API answer/],
    [ok('string', [1, 'x']), /string/],
    [ok('matrix', [{ metric: {}, values: [[1, 'one']] }]), /"one" is not a number/],
    [ok('vector', { nope: 1 }), /Malformed vector/],
  ])('protocol error for %s', (body, msg) => {
    const r = parseQueryResponse(200, body, 'text/html');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('protocol');
      expect(r.error.message).toMatch(msg);
    }
  });
});

describe('PromApiClient over HTTP', () => {
  async function fake(handler: (path: string, q: URLSearchParams) => [number, string]) {
    const seen: string[] = [];
    const srv = await serveOnce((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      seen.push(u.pathname + u.search);
      const [status, body] = handler(u.pathname, u.searchParams);
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    cleanups.push(srv.close);
    return { url: srv.url, seen };
  }

  it('keeps a path prefix and encodes the parameters', async () => {
    const f = await fake(() => [200, ok('vector', [])]);
    const c = new PromApiClient({ url: `${f.url}/prom` });
    await c.query('sum(x{a="b"})', 100);
    await c.queryRange('up', 1, 2, 0.5);
    expect(f.seen).toEqual([
      '/prom/api/v1/query?query=sum%28x%7Ba%3D%22b%22%7D%29&time=100',
      '/prom/api/v1/query_range?query=up&start=1&end=2&step=0.5',
    ]);
  });

  it('classifies: Prometheus error JSON (http + errorType), other HTTP errors, network, timeout', async () => {
    const f = await fake((_p, q) => {
      const query = q.get('query');
      if (query === 'bad') return [400, '{"status":"error","errorType":"bad_data","error":"parse error"}'];
      if (query === 'slow')
        return [503, '{"status":"error","errorType":"timeout","error":"query timed out"}'];
      return [502, '<html>bad gateway</html>'];
    });
    const c = new PromApiClient({ url: f.url });
    expect(await c.query('bad')).toMatchObject({
      ok: false,
      error: {
        kind: 'http',
        status: 400,
        errorType: 'bad_data',
        message: 'Prometheus error bad_data (HTTP 400): parse error',
      },
    });
    expect(await c.query('slow')).toMatchObject({
      ok: false,
      error: { kind: 'http', status: 503, errorType: 'timeout' },
    });
    const gw = await c.query('other');
    expect(gw).toMatchObject({ ok: false, error: { kind: 'http', status: 502 } });
    expect(gw.ok ? null : gw.error.errorType).toBeUndefined();
    const closed = new PromApiClient({ url: `http://127.0.0.1:${await closedPort()}` });
    expect(await closed.query('up')).toMatchObject({
      ok: false,
      error: { kind: 'network', code: 'refused' },
    });
    const hang = await serveOnce(() => undefined);
    cleanups.push(hang.close);
    const t = await new PromApiClient({ url: hang.url, timeoutMs: 100 }).query('up');
    expect(t).toMatchObject({ ok: false, error: { kind: 'client', code: 'timeout' } });
  });

  it('fleet: detects the profile, runs every concept query, keeps per-concept failures', async () => {
    const queries: string[] = [];
    const f = await fake((path, q) => {
      const query = q.get('query') ?? '';
      queries.push(query);
      if (query.startsWith('count by (__name__')) {
        const names = [
          'vllm:num_requests_running',
          'vllm:kv_cache_usage_perc',
          'vllm:generation_tokens_total',
        ];
        return [
          200,
          ok(
            'vector',
            names.map((n) => ({ metric: { __name__: n, engine: '0' }, value: [1, '1'] })),
          ),
        ];
      }
      if (query.includes('time_to_first_token'))
        return [422, '{"status":"error","errorType":"execution","error":"boom"}'];
      if (query.includes('num_requests_running'))
        return [
          200,
          path.endsWith('query_range')
            ? ok('matrix', [
                {
                  metric: {},
                  values: [
                    [1, '2'],
                    [2, '3'],
                  ],
                },
              ])
            : ok('vector', [{ metric: {}, value: [2, '3'] }]),
        ];
      return [200, ok(path.endsWith('query_range') ? 'matrix' : 'vector', [])];
    });
    const c = new PromApiClient({ url: f.url });
    const r = await queryFleetRange(
      c,
      { selector: '{job="vllm"}', window: '5m' },
      { startSec: 1, endSec: 2, stepSec: 1 },
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.profile).toBe('vllm-v1');
    expect(r.value.concepts.requestsRunning).toEqual({
      query: 'sum(vllm:num_requests_running{job="vllm"})',
      points: [
        { t: 1, v: 2 },
        { t: 2, v: 3 },
      ],
    });
    expect(r.value.concepts.generationTokensTotal).toMatchObject({ points: [] });
    expect(r.value.concepts.ttftP50).toMatchObject({ error: { kind: 'http', errorType: 'execution' } });
    expect(queries.every((q) => q.includes('job="vllm"'))).toBe(true);
    const range = await queryFleetRange(
      c,
      { selector: 'job="vllm"', profile: 'vllm-v1' },
      { startSec: 1, endSec: 2, stepSec: 1 },
    );
    expect(range.ok && range.value.concepts.requestsRunning).toMatchObject({
      points: [
        { t: 1, v: 2 },
        { t: 2, v: 3 },
      ],
    });
  });

  it('fleet: a dead endpoint or a bad target fails as a whole, with its kind', async () => {
    const c = new PromApiClient({ url: `http://127.0.0.1:${await closedPort()}` });
    const at = { startSec: 1, endSec: 1, stepSec: 1 };
    expect(await queryFleetRange(c, { selector: '{job="x"}', profile: 'tgi' }, at)).toMatchObject({
      ok: false,
      error: { kind: 'network' },
    });
    expect(await queryFleetRange(c, { selector: 'up{job="x"}' }, at)).toMatchObject({
      ok: false,
      error: { kind: 'client', code: 'invalid-request' },
    });
    const bad = await queryFleetRange(
      c,
      { selector: '{}', profile: 'tgi' },
      { startSec: 2, endSec: 1, stepSec: 1 },
    );
    expect(bad).toMatchObject({ ok: false, error: { kind: 'client' } });
    expect(() => new PromApiClient({ url: 'ftp://x' })).toThrow(TypeError);
  });
});
