import { describe, expect, it } from 'vitest';
import { socketUrl, takeToken, TOKEN_KEY } from './token.ts';

function memStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('takeToken', () => {
  it('takes the token from the URL, stores it and strips it from the visible URL', () => {
    const storage = memStorage();
    const urls: string[] = [];
    const tok = takeToken({
      href: 'http://127.0.0.1:7000/?token=s3cret&x=1#frames',
      storage,
      replaceUrl: (u) => urls.push(u),
    });
    expect(tok).toBe('s3cret');
    expect(storage.m.get(TOKEN_KEY)).toBe('s3cret');
    expect(urls).toEqual(['/?x=1#frames']);
  });

  it('falls back to the stored token on reload', () => {
    const storage = memStorage();
    storage.setItem(TOKEN_KEY, 'kept');
    const urls: string[] = [];
    expect(takeToken({ href: 'http://127.0.0.1:7000/', storage, replaceUrl: (u) => urls.push(u) })).toBe(
      'kept',
    );
    expect(urls).toEqual([]);
  });

  it('returns null without token or storage', () => {
    expect(takeToken({ href: 'http://h/', storage: null, replaceUrl: () => {} })).toBeNull();
  });
});

describe('socketUrl', () => {
  it('follows the page scheme and escapes the token', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:7000' }, 'a+b/c')).toBe(
      'ws://127.0.0.1:7000/ws?token=a%2Bb%2Fc',
    );
    expect(socketUrl({ protocol: 'https:', host: 'x' }, 't')).toBe('wss://x/ws?token=t');
  });
});
