/** How an event is classified for display (timeline marks, raw frame flags). */
import {
  EV_COALESCED,
  EV_CONTENT,
  EV_ERROR,
  EV_FINISH,
  EV_REASONING,
  EV_TERMINAL,
  EV_TOKENS_EXACT,
  EV_USAGE,
} from '../../../shared/request.ts';

export type MetaKind = 'empty' | 'usage' | 'terminal' | 'error';

/**
 * The glyph of an event in the meta strip under the bars: errors first, then the end marker
 * (terminal or finish reason), then usage. Content events get a glyph only when they carry
 * one of those too; a non-content event with none of them is an "empty" event (role-only
 * chunk, empty delta, keep-alive).
 */
export function metaKind(flags: number): MetaKind | null {
  if (flags & EV_ERROR) return 'error';
  if (flags & (EV_TERMINAL | EV_FINISH)) return 'terminal';
  if (flags & EV_USAGE) return 'usage';
  if (flags & EV_CONTENT) return null;
  return 'empty';
}

/** Flag names as the raw frames table and tooltips print them. */
export function flagNames(flags: number): string[] {
  const out: string[] = [];
  if (flags & EV_CONTENT) out.push('content');
  else if (!(flags & (EV_USAGE | EV_TERMINAL | EV_ERROR | EV_FINISH))) out.push('empty');
  if (flags & EV_USAGE) out.push('usage');
  if (flags & EV_FINISH) out.push('finish');
  if (flags & EV_TERMINAL) out.push('end');
  if (flags & EV_ERROR) out.push('error');
  if (flags & EV_COALESCED) out.push('coalesced');
  if (flags & EV_REASONING) out.push('reasoning');
  return out;
}

/** "3" when the server said so, "~3" when estimated (never mixed silently). */
export function tokenLabel(tokens: number, flags: number): string {
  if (!(flags & EV_CONTENT) && tokens === 0) return '0';
  return flags & EV_TOKENS_EXACT ? String(tokens) : `~${tokens}`;
}
