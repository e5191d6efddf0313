/**
 * A report file: the report template (the report page built as one HTML file, out/report/) with
 * the data put into its `<script type="application/json">`. Run data is untrusted text (labels,
 * model names, a server's error messages): every `<` in the JSON is written as `\u003c`, so no
 * `</script` or `<!--` can end or confuse the element, and JSON.parse reads it back unchanged.
 */
import { REPORT_DATA_PLACEHOLDER, type ReportData } from './report-types.ts';

/** JSON safe inside a script element (also U+2028/9, which some parsers of old took as newlines). @internal exported for its tests */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The template with the data in; null when it is not a report template (no placeholder, or two). */
export function fillReportTemplate(template: string, data: ReportData): string | null {
  const at = template.indexOf(REPORT_DATA_PLACEHOLDER);
  if (at < 0 || template.indexOf(REPORT_DATA_PLACEHOLDER, at + 1) >= 0) return null;
  // Sliced, not String.replace: `$&` and friends in the data must stay as they are.
  return template.slice(0, at) + scriptSafeJson(data) + template.slice(at + REPORT_DATA_PLACEHOLDER.length);
}
