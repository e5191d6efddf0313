import { describe, expect, it } from 'vitest';
import {
  EV_COALESCED,
  EV_CONTENT,
  EV_ERROR,
  EV_FINISH,
  EV_TERMINAL,
  EV_TOKENS_EXACT,
  EV_USAGE,
} from '../../../shared/request.ts';
import { flagNames, metaKind, tokenLabel } from './event-kind.ts';

describe('event kinds', () => {
  it('classifies the meta glyph', () => {
    expect(metaKind(0)).toBe('empty');
    expect(metaKind(EV_CONTENT)).toBeNull();
    expect(metaKind(EV_CONTENT | EV_FINISH)).toBe('terminal');
    expect(metaKind(EV_USAGE)).toBe('usage');
    expect(metaKind(EV_USAGE | EV_TERMINAL)).toBe('terminal');
    expect(metaKind(EV_ERROR | EV_TERMINAL)).toBe('error');
  });
  it('names flags', () => {
    expect(flagNames(0)).toEqual(['empty']);
    expect(flagNames(EV_CONTENT | EV_COALESCED | EV_TOKENS_EXACT)).toEqual(['content', 'coalesced']);
    expect(flagNames(EV_USAGE | EV_FINISH)).toEqual(['usage', 'finish']);
    expect(flagNames(EV_TERMINAL)).toEqual(['end']);
  });
  it('marks estimated token counts with ~', () => {
    expect(tokenLabel(3, EV_CONTENT | EV_TOKENS_EXACT)).toBe('3');
    expect(tokenLabel(1, EV_CONTENT)).toBe('~1');
    expect(tokenLabel(0, EV_USAGE)).toBe('0');
  });
});
