import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from 'commander';
import { collectMetricsEndpoint, normalizeServerUrl } from './url-arg.ts';

describe('server URLs typed on the command line', () => {
  it('assumes http:// for host:port (what people type) and says so once', () => {
    const notes: string[] = [];
    const note = (l: string): void => void notes.push(l);
    expect(normalizeServerUrl('localhost:8000', note)).toBe('http://localhost:8000');
    expect(normalizeServerUrl('10.0.0.5:30000/v1', note)).toBe('http://10.0.0.5:30000/v1');
    expect(normalizeServerUrl('[::1]:8080', note)).toBe('http://[::1]:8080');
    expect(normalizeServerUrl('gpu-box', note)).toBe('http://gpu-box');
    expect(notes).toHaveLength(4);
    expect(notes[0]).toMatch(/no scheme; using http:\/\/localhost:8000/);
    expect(normalizeServerUrl('https://api.example.com/v1', note)).toBe('https://api.example.com/v1');
    expect(notes).toHaveLength(4);
  });

  it('refuses what is not an http(s) server with a usage message, never a TypeError', () => {
    for (const bad of ['ht!tp://x', 'ftp://host/file', 'http://[::1', '', 'a b:80', 'file:///etc/passwd'])
      expect(() => normalizeServerUrl(bad, () => undefined), bad).toThrow(/URL|http/);
    expect(() => normalizeServerUrl('ftp://host', () => undefined)).toThrow(/only http:\/\/ and https:\/\//);
  });
});

describe('--metrics-endpoint ROLE=URL', () => {
  it('collects role endpoints, refuses a bad one (a usage error) and a ninth', () => {
    const two = collectMetricsEndpoint(
      'decode=http://d:30001/metrics',
      collectMetricsEndpoint('prefill=http://p:30000/metrics'),
    );
    expect(two).toEqual([
      { role: 'prefill', url: 'http://p:30000/metrics' },
      { role: 'decode', url: 'http://d:30001/metrics' },
    ]);
    expect(() => collectMetricsEndpoint('http://d:30001/metrics')).toThrow(InvalidArgumentError);
    expect(() => collectMetricsEndpoint('encode=http://e/metrics')).toThrow(/not a role/);
    const eight = Array.from({ length: 8 }, (_, i) => ({
      role: 'decode' as const,
      url: `http://d${i}/metrics`,
    }));
    expect(() => collectMetricsEndpoint('decode=http://d9/metrics', eight)).toThrow(/at most 8/);
  });
});
