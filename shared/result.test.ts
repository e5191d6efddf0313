import { describe, expect, it } from 'vitest';
import { errorMessage } from './result.ts';

describe('errorMessage', () => {
  it('is the message of an Error and the text of anything else thrown', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage('plain string')).toBe('plain string');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage({ code: 'ENOENT' })).toBe('[object Object]');
  });
});
