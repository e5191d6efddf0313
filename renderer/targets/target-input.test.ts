import { describe, expect, it } from 'vitest';
import { buildTargetInput, formFromTarget, NEW_TARGET } from './target-input.ts';

describe('buildTargetInput', () => {
  it('role endpoints: role=URL a line, a bad line named, round-tripped through the form', () => {
    const base = { ...NEW_TARGET, name: 'pd', baseUrl: 'http://router:8000' };
    const r = buildTargetInput({
      ...base,
      metricsEndpoints: 'prefill=http://p:30000/metrics\n\n decode=http://d:30001/metrics \n',
    });
    expect(r.ok && r.value.metricsEndpoints).toEqual([
      { role: 'prefill', url: 'http://p:30000/metrics' },
      { role: 'decode', url: 'http://d:30001/metrics' },
    ]);
    const none = buildTargetInput({ ...base, metricsEndpoints: ' \n' });
    expect(none.ok && 'metricsEndpoints' in none.value).toBe(false);
    const bad = buildTargetInput({ ...base, metricsEndpoints: 'encode=http://e:1/metrics' });
    expect(!bad.ok && bad.error.metricsEndpoints).toMatch(/"encode" is not a role/);
    const nine = Array.from({ length: 9 }, (_, i) => `decode=http://d${i}:1/metrics`).join('\n');
    expect(buildTargetInput({ ...base, metricsEndpoints: nine }).ok).toBe(false);
    const f = formFromTarget({
      id: 't',
      name: 'n',
      baseUrl: 'http://h:1',
      dialect: 'openai-chat',
      hasApiKey: false,
      builtin: false,
      metricsEndpoints: [{ role: 'decode', url: 'http://d:30001/metrics' }],
    });
    expect(f.metricsEndpoints).toBe('decode=http://d:30001/metrics');
  });

  it('validates name and URLs', () => {
    const r = buildTargetInput({ ...NEW_TARGET, name: ' ', baseUrl: 'gpu-box:8000', metricsUrl: 'ftp://x' });
    expect(r.ok).toBe(false);
    expect(!r.ok && Object.keys(r.error).sort()).toEqual(['baseUrl', 'metricsUrl', 'name']);
  });

  it('telemetry endpoints: one URL a line, blanks dropped, a bad one named, round-tripped', () => {
    const base = { ...NEW_TARGET, name: 'box', baseUrl: 'http://gpu:8000' };
    const r = buildTargetInput({
      ...base,
      telemetryUrls: ' http://gpu:9400/metrics \n\nhttp://gpu:9100/metrics\n',
    });
    expect(r.ok && r.value.telemetryUrls).toEqual(['http://gpu:9400/metrics', 'http://gpu:9100/metrics']);
    const none = buildTargetInput({ ...base, telemetryUrls: '  \n' });
    expect(none.ok && 'telemetryUrls' in none.value).toBe(false);
    const bad = buildTargetInput({ ...base, telemetryUrls: 'http://gpu:9400/metrics\ngpu:9100' });
    expect(!bad.ok && bad.error.telemetryUrls).toBe('Not an http:// or https:// URL: gpu:9100');
    const f = formFromTarget({
      id: 't',
      name: 'n',
      baseUrl: 'http://h:1',
      dialect: 'openai-chat',
      hasApiKey: false,
      builtin: false,
      telemetryUrls: ['http://h:9400/metrics', 'http://h:9100/metrics'],
    });
    expect(f.telemetryUrls).toBe('http://h:9400/metrics\nhttp://h:9100/metrics');
  });

  it('keeps the stored key unless a new one is typed or clearing is asked', () => {
    const base = { ...NEW_TARGET, name: 'box', baseUrl: 'http://gpu:8000' };
    const keep = buildTargetInput(base);
    expect(keep.ok && 'apiKey' in keep.value).toBe(false);
    const set = buildTargetInput({ ...base, apiKey: 'sk-1' });
    expect(set.ok && set.value.apiKey).toBe('sk-1');
    const clear = buildTargetInput({ ...base, clearKey: true });
    expect(clear.ok && clear.value.apiKey).toBe('');
  });

  it('round-trips a target view (the key never comes back)', () => {
    const f = formFromTarget({
      id: 't1',
      name: 'vllm',
      baseUrl: 'http://h:8000',
      dialect: 'openai-completions',
      defaultModel: 'm',
      headers: { 'X-A': '1' },
      hasApiKey: true,
      builtin: false,
    });
    expect(f.apiKey).toBe('');
    const r = buildTargetInput(f);
    expect(r.ok && r.value).toEqual({
      id: 't1',
      name: 'vllm',
      baseUrl: 'http://h:8000',
      dialect: 'openai-completions',
      defaultModel: 'm',
      headers: { 'X-A': '1' },
    });
  });

  it('a Prometheus source needs a Prometheus URL and a selector naming the servers', () => {
    const base = {
      ...NEW_TARGET,
      name: 'fleet',
      baseUrl: 'http://gpu:8000',
      metricsSource: 'prometheus' as const,
    };
    const none = buildTargetInput(base);
    expect(!none.ok && Object.keys(none.error).sort()).toEqual(['prometheusSelector', 'prometheusUrl']);
    const empty = buildTargetInput({ ...base, prometheusUrl: 'http://prom:9090', prometheusSelector: '{}' });
    expect(!empty.ok && empty.error.prometheusSelector).toMatch(/at least one label/);
    const bad = buildTargetInput({
      ...base,
      prometheusUrl: 'http://prom:9090',
      prometheusSelector: 'job=vllm',
    });
    expect(!bad.ok && bad.error.prometheusSelector).toMatch(/expected label="value"/);
    const good = buildTargetInput({
      ...base,
      prometheusUrl: ' http://prom:9090 ',
      prometheusSelector: ' {job="vllm"} ',
      metricsUrl: 'http://ignored/metrics',
    });
    expect(good.ok && good.value).toMatchObject({
      prometheusUrl: 'http://prom:9090',
      prometheusSelector: '{job="vllm"}',
    });
    // Switching back to the server's own /metrics drops the Prometheus fields.
    const back = buildTargetInput({ ...base, metricsSource: 'scrape', prometheusUrl: 'http://prom:9090' });
    expect(back.ok && 'prometheusUrl' in back.value).toBe(false);
    const f = formFromTarget({
      id: 't',
      name: 'fleet',
      baseUrl: 'http://gpu:8000',
      dialect: 'openai-chat',
      hasApiKey: false,
      builtin: false,
      prometheusUrl: 'http://prom:9090',
      prometheusSelector: '{job="vllm"}',
    });
    expect(f).toMatchObject({ metricsSource: 'prometheus', prometheusSelector: '{job="vllm"}' });
  });

  it('scrape interval and timeout: seconds as typed, ms on the wire, defaults left out', () => {
    const base = { ...NEW_TARGET, name: 'box', baseUrl: 'http://gpu:8000' };
    const def = buildTargetInput(base);
    expect(def.ok && ['metricsIntervalMs', 'metricsTimeoutMs'].some((k) => k in def.value)).toBe(false);
    const set = buildTargetInput({ ...base, metricsInterval: '2.5', metricsTimeout: '.5' });
    expect(set.ok && set.value).toMatchObject({ metricsIntervalMs: 2500, metricsTimeoutMs: 500 });
    for (const [interval, timeout] of [
      ['0.1', ''],
      ['61', ''],
      ['1s', ''],
      ['1', '0'],
      ['1', 'abc'],
    ] as const) {
      const r = buildTargetInput({ ...base, metricsInterval: interval, metricsTimeout: timeout });
      expect(r.ok, `${interval}/${timeout}`).toBe(false);
    }
    const back = formFromTarget({
      id: 't',
      name: 'box',
      baseUrl: 'http://gpu:8000',
      dialect: 'openai-chat',
      hasApiKey: false,
      builtin: false,
      metricsIntervalMs: 15_000,
      metricsTimeoutMs: 2000,
    });
    expect(back).toMatchObject({ metricsInterval: '15', metricsTimeout: '2' });
  });
});

describe('secret headers and a target that moves', () => {
  const view = {
    id: 't9',
    name: 'gpu',
    baseUrl: 'http://10.0.0.1:8000',
    dialect: 'openai-chat' as const,
    headers: { 'X-Team': 'infra' },
    secretHeaderNames: ['X-Sig'],
    hasApiKey: true,
    builtin: false,
  };

  it('a stored secret header comes back as a row without its value, and is kept unless removed', () => {
    const f = formFromTarget(view);
    expect(f.headers).toEqual([
      { key: 'X-Team', value: 'infra' },
      { key: 'X-Sig', value: '', secret: true, stored: true },
    ]);
    const r = buildTargetInput(f, view);
    expect(r.ok && r.value.secretHeaders).toEqual([{ name: 'X-Sig' }]);
    expect(r.ok && r.value.headers).toEqual({ 'X-Team': 'infra' });
    const removed = buildTargetInput({ ...f, headers: [f.headers[0]!] }, view);
    expect(removed.ok && removed.value.secretHeaders).toEqual([]);
    const typed = buildTargetInput(
      { ...f, headers: [...f.headers, { key: 'X-Session', value: 's-1', secret: true }] },
      view,
    );
    expect(typed.ok && typed.value.secretHeaders).toEqual([
      { name: 'X-Sig' },
      { name: 'X-Session', value: 's-1' },
    ]);
  });

  it('moving to another server asks about the key before saving, and sends the answer', () => {
    const f = { ...formFromTarget(view), baseUrl: 'https://elsewhere.example' };
    const unanswered = buildTargetInput(f, view);
    expect(unanswered.ok).toBe(false);
    if (!unanswered.ok) expect(unanswered.error.keepSecretsOnMove).toMatch(/another server/);
    const keep = buildTargetInput({ ...f, keepSecretsOnMove: true }, view);
    expect(keep.ok && keep.value.keepApiKey).toBe(true);
    const drop = buildTargetInput({ ...f, keepSecretsOnMove: false }, view);
    expect(drop.ok && drop.value.keepApiKey).toBe(false);
    // Same server, another path: nothing to ask.
    const same = buildTargetInput({ ...formFromTarget(view), baseUrl: 'http://10.0.0.1:8000/v1' }, view);
    expect(same.ok && same.value.keepApiKey).toBeUndefined();
  });
});
