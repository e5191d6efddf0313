/**
 * How the run summary's cards write a number: two decimals or a whole count, as `vllm bench serve`
 * prints them, and a dash for what was not measured.
 */
export const f2 = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(2);

export const int = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : Math.round(v).toLocaleString('en-US');
