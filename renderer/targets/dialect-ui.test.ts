// What the composer and the target editor show for a dialect.
import { describe, expect, it } from 'vitest';
import { apiKeyHint, hasStreamOptions, isChatDialect } from './dialect-ui.ts';

describe('dialect UI', () => {
  it('Anthropic Messages takes chat messages, has no stream_options, and says how its key is sent', () => {
    expect(isChatDialect('anthropic-messages')).toBe(true);
    expect(hasStreamOptions('anthropic-messages')).toBe(false);
    expect(apiKeyHint('anthropic-messages')).toMatch(/x-api-key.*anthropic-version: 2023-06-01/);
    expect(apiKeyHint('openai-chat')).toMatch(/Authorization: Bearer/);
  });
});
