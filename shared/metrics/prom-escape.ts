/** Escaping in label values and HELP text (test-corpus/FORMATS.md §3.1; OpenMetrics 1.0 ABNF). */

/** Escape a label value for the text format: only `\\`, `"` and newline are escaped. */
export function escapeLabelValue(v: string): string {
  return v.replace(/[\\"\n]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : '\\n'));
}

/** Undo HELP escaping. Unknown escapes are kept literally and reported through `onBad`. */
export function unescapeHelp(v: string, onBad: (seq: string) => void): string {
  if (v.indexOf('\\') < 0) return v;
  return v.replace(/\\(.?)/gs, (_m, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    if (c === '"') return '"';
    onBad('\\' + c);
    return '\\' + c;
  });
}
