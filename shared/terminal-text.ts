/**
 * Text that came from outside (a server's stream, error body, model or metric names, a run file)
 * must not drive the terminal it is printed on: an `ESC]0;…BEL` retitles the window, `ESC[2J`
 * clears it, an OSC 8 sequence hides a link behind innocent text, a CR + `ESC[K` overwrites the
 * line before it. One helper neutralises every control character the CLI could print — C0 except
 * tab and newline, a CR that does not end a line (CR LF stays), DEL and C1 — by writing it out
 * as a visible escape.
 *
 * The escape is spelled `\u001b`, not `\x1b`: in `--json` output (JSON.stringify already escapes
 * C0, but leaves DEL and C1 raw) that spelling is a valid JSON escape that parses back to the
 * same character, so JSON stays JSON and keeps its value, and in plain text it is just as visible.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

function visible(c: string): string {
  return c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every control character but tab, newline and CR LF written as a visible escape. */
export function neutralizeControls(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, visible) : text;
}
