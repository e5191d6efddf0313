/**
 * The one way the app writes a moment: the user's locale for the date and the order of its parts,
 * always a 24-hour clock (what server logs use). `fmtDateTime` for runs (they span days);
 * `fmtClock` (HH:MM:SS) for this session's requests and chart axes.
 */
const DATE_TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "Nov 25, 2026, 15:49" (en-US), "25 Nov 2026, 15:49" (en-GB)…; '' for an unknown time. */
export function fmtDateTime(ms: number | null | undefined): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? DATE_TIME.format(ms) : '';
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** HH:MM:SS in local time (24 h): what a user compares with their server's logs. */
export function fmtClock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
