// What the composer shows for a dialect.
import { describe, expect, it } from 'vitest';
import { hasStreamOptions, isChatDialect } from './dialect-ui.ts';

describe('dialect UI', () => {
  it('Anthropic Messages takes chat messages and has no stream_options', () => {
    expect(isChatDialect('anthropic-messages')).toBe(true);
    expect(hasStreamOptions('anthropic-messages')).toBe(false);
  });
});
