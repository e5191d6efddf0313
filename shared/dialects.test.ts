// The dialect tables are complete, and each dialect's key travels in the header its servers read.
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_VERSION,
  apiKeyHeader,
  dialectHeaders,
  DIALECT_IDS,
  DIALECT_LABELS,
  DIALECT_PATHS,
} from './dialects.ts';

describe('dialects', () => {
  it('every id has a path and a label', () => {
    for (const id of DIALECT_IDS) {
      expect(DIALECT_PATHS[id]).toMatch(/^\//);
      expect(DIALECT_LABELS[id]).toBeTruthy();
    }
    expect(DIALECT_PATHS['anthropic-messages']).toBe('/v1/messages');
  });

  it('the key goes as Authorization: Bearer, or x-api-key with anthropic-version for Anthropic', () => {
    expect(dialectHeaders('openai-chat', 'k')).toEqual({ authorization: 'Bearer k' });
    expect(dialectHeaders('ollama-chat', undefined)).toEqual({});
    expect(dialectHeaders('anthropic-messages', 'k')).toEqual({
      'x-api-key': 'k',
      'anthropic-version': ANTHROPIC_VERSION,
    });
    expect(dialectHeaders('anthropic-messages', undefined)).toEqual({ 'anthropic-version': '2023-06-01' });
    // The user's own version header (any case) is left alone.
    expect(dialectHeaders('anthropic-messages', 'k', { 'ANTHROPIC-VERSION': '2099-01-01' })).toEqual({
      'x-api-key': 'k',
    });
    expect(DIALECT_IDS.filter((d) => apiKeyHeader(d) === 'x-api-key')).toEqual(['anthropic-messages']);
  });
});
