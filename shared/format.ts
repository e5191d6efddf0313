/** Display helpers shared by the CLI and the UI. Pure, no DOM. */

export function fmtMs(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return `${v.toFixed(digits)} ms`;
}

export function fmtNum(v: number | null | undefined, digits = 1): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return v.toFixed(digits);
}

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

/** A short one-line rendering of a text delta: escapes newlines and control characters. */
export function showText(s: string, max = 60): string {
  const e = JSON.stringify(s);
  return e.length > max ? e.slice(0, max - 1) + '…"' : e;
}
