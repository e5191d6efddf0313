/**
 * A target's Prometheus label selector (`{job="vllm",instance="10.0.0.1:8000"}`), validated the
 * same way in the target editor (renderer) and in the core, before any query is built from it.
 */

/** One label matcher, kept as its validated source text (`job="vllm"`). */
export interface Matcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  /** The quoted string literal exactly as written (PromQL escapes intact). */
  quoted: string;
}

const MATCHER =
  /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`)\s*/y;

/**
 * Parses a target selector: label matchers with or without braces (`{job="vllm",instance=~"a.*"}`,
 * `job="vllm"`, `{}` or '' for everything). Only matchers: the profile supplies metric names, so a
 * metric name or `__name__` here would silently select nothing. Throws a TypeError saying where.
 */
export function parseSelector(selector: string): Matcher[] {
  let s = selector.trim();
  if (s.startsWith('{')) {
    if (!s.endsWith('}')) throw new TypeError(`Selector ${selector} opens "{" but does not end with "}".`);
    s = s.slice(1, -1);
  }
  const out: Matcher[] = [];
  let pos = 0;
  while (s.slice(pos).trim() !== '') {
    MATCHER.lastIndex = pos;
    const m = MATCHER.exec(s);
    if (m === null)
      throw new TypeError(`Selector ${selector}: expected label="value" at "${s.slice(pos, pos + 30)}".`);
    const [, label, op, quoted] = m as unknown as [string, string, Matcher['op'], string];
    if (label === '__name__')
      throw new TypeError('Selector must not name the metric (__name__): the profile does.');
    out.push({ label, op, quoted });
    pos = MATCHER.lastIndex;
    if (pos < s.length) {
      if (s[pos] !== ',')
        throw new TypeError(`Selector ${selector}: expected "," at "${s.slice(pos, pos + 30)}".`);
      pos++;
    }
  }
  return out;
}

/** The selector written back in canonical form: `{job="vllm",instance=~"a.*"}`. */
export function selectorText(matchers: readonly Matcher[]): string {
  return `{${matchers.map((m) => `${m.label}${m.op}${m.quoted}`).join(',')}}`;
}
