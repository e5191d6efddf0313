/**
 * Header rows as the editors show them (name, value, secret) ⇄ a headers record: used by the
 * target editor and the composer alike.
 */
import type { Result } from '../../shared/result.ts';

export interface HeaderRow {
  key: string;
  value: string;
  /** Target headers only: the value is a secret (stored like the API key, never shown again). */
  secret?: boolean;
  /** A secret whose value is stored: an empty `value` keeps it. */
  stored?: boolean;
}

/** A header row list parsed: the record, or why not. */
export type HeaderRowsResult = Result<Record<string, string> | undefined, string>;

/** Header rows → record; blank rows are skipped, a value without a name or a repeated name is an error. */
export function headersFromRows(rows: HeaderRow[]): HeaderRowsResult {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const r of rows) {
    const k = r.key.trim();
    if (!k && !r.value.trim()) continue;
    if (!k) return { ok: false, error: 'A header has a value but no name.' };
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k))
      return { ok: false, error: `"${k}" is not a valid header name.` };
    if (seen.has(k.toLowerCase())) return { ok: false, error: `Header "${k}" is given twice.` };
    seen.add(k.toLowerCase());
    out[k] = r.value;
  }
  return { ok: true, value: Object.keys(out).length ? out : undefined };
}

export function rowsFromHeaders(h: Record<string, string> | undefined): HeaderRow[] {
  return Object.entries(h ?? {}).map(([key, value]) => ({ key, value }));
}
