import { describe, expect, it } from 'vitest';
import { normalizeServerUrl } from './url-arg.ts';

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
