// The dialect tables are complete.
import { describe, expect, it } from 'vitest';
import { DIALECT_IDS, DIALECT_LABELS, DIALECT_PATHS } from './dialects.ts';

describe('dialects', () => {
  it('every id has a path and a label', () => {
    for (const id of DIALECT_IDS) {
      expect(DIALECT_PATHS[id]).toMatch(/^\//);
      expect(DIALECT_LABELS[id]).toBeTruthy();
    }
    expect(DIALECT_PATHS['anthropic-messages']).toBe('/v1/messages');
  });
});
