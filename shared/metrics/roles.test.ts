import { describe, expect, it } from 'vitest';
import { TargetInput } from '../api.ts';
import { parseMetricsEndpoint } from './roles.ts';

describe('metrics endpoints with roles', () => {
  it('ROLE=URL is read; a bad role, a bad URL or another scheme is refused with why', () => {
    expect(parseMetricsEndpoint('decode=http://10.0.0.2:30001/metrics')).toEqual({
      ok: true,
      value: { role: 'decode', url: 'http://10.0.0.2:30001/metrics' },
    });
    expect(parseMetricsEndpoint(' Prefill = https://p/metrics ')).toMatchObject({
      ok: true,
      value: { role: 'prefill' },
    });
    expect(parseMetricsEndpoint('encode=http://x/metrics')).toMatchObject({ ok: false, error: /not a role/ });
    expect(parseMetricsEndpoint('http://x/metrics')).toMatchObject({ ok: false, error: /ROLE=URL/ });
    expect(parseMetricsEndpoint('decode=ftp://x/metrics')).toMatchObject({ ok: false, error: /http/ });
    expect(parseMetricsEndpoint('decode=not a url')).toMatchObject({ ok: false });
  });

  it('a target keeps at most 8, each an http(s) URL with a known role', () => {
    const base = { name: 't', baseUrl: 'http://127.0.0.1:8000', dialect: 'openai-chat' as const };
    const e = (i: number) => ({ role: 'decode' as const, url: `http://127.0.0.1:${30000 + i}/metrics` });
    expect(
      TargetInput.safeParse({ ...base, metricsEndpoints: [e(1), { role: 'prefill', url: e(2).url }] })
        .success,
    ).toBe(true);
    expect(
      TargetInput.safeParse({ ...base, metricsEndpoints: Array.from({ length: 9 }, (_, i) => e(i)) }).success,
    ).toBe(false);
    expect(
      TargetInput.safeParse({ ...base, metricsEndpoints: [{ role: 'encode', url: e(1).url }] }).success,
    ).toBe(false);
    expect(
      TargetInput.safeParse({ ...base, metricsEndpoints: [{ role: 'decode', url: 'file:///etc/passwd' }] })
        .success,
    ).toBe(false);
  });
});
