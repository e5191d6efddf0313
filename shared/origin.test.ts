import { describe, expect, it } from 'vitest';
import { originOf } from './origin.ts';

describe('originOf: whether a key follows a target', () => {
  it('is scheme, host and port; the path, query and credentials do not count', () => {
    expect(originOf('http://gpu-1:8000/v1')).toBe('http://gpu-1:8000');
    expect(originOf('http://u:p@gpu-1:8000/v1?x=1')).toBe('http://gpu-1:8000');
    expect(originOf('HTTP://GPU-1:8000')).toBe('http://gpu-1:8000');
    // Default ports are the same origin written two ways.
    expect(originOf('https://api.example.com:443/v1')).toBe(originOf('https://api.example.com'));
  });

  it('another scheme, host or port is another origin', () => {
    const a = originOf('http://gpu-1:8000');
    expect(originOf('https://gpu-1:8000')).not.toBe(a);
    expect(originOf('http://gpu-2:8000')).not.toBe(a);
    expect(originOf('http://gpu-1:8001')).not.toBe(a);
  });

  it('ignores surrounding white space (the form is typed into) and gives "" for what does not parse', () => {
    expect(originOf('  http://gpu-1:8000/v1 \n')).toBe('http://gpu-1:8000');
    expect(originOf('\u00a0http://gpu-1:8000')).toBe('http://gpu-1:8000');
    expect(originOf('gpu-1:8000')).not.toBe('http://gpu-1:8000');
    expect(originOf('')).toBe('');
    expect(originOf('not a url')).toBe('');
  });
});
