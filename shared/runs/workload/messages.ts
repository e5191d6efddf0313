/**
 * Workload problems in plain words: the app's run form and `tokenscope run` say the same thing
 * ("At least 1.", "Enter a number.") instead of the schema's ("Too small: expected number to be >=1").
 */
const big = (n: string): string => {
  const x = Number(n);
  return Number.isFinite(x) ? x.toLocaleString('en-US') : n;
};

/**
 * A schema message as a person would say it, short enough for the form's narrow column:
 * "Too small: expected number to be >=1" → "At least 1.", "expected number, received NaN" →
 * "Enter a number." Unknown messages pass through.
 */
export function plainMessage(path: string, message: string): string {
  let m: RegExpExecArray | null;
  if (path === 'rate' && /^Invalid input/.test(message)) return 'Requests per second (above 0), or ∞.';
  if (/expected number, received NaN|expected number, received string/.test(message))
    return 'Enter a number.';
  if (/expected int/.test(message)) return 'Enter a whole number.';
  if ((m = /^Too small: expected number to be >=(\S+)$/.exec(message))) return `At least ${big(m[1]!)}.`;
  if ((m = /^Too small: expected number to be >(\S+)$/.exec(message))) return `More than ${big(m[1]!)}.`;
  if ((m = /^Too big: expected number to be <=(\S+)$/.exec(message))) return `At most ${big(m[1]!)}.`;
  if ((m = /^Too big: expected number to be <(\S+)$/.exec(message))) return `Less than ${big(m[1]!)}.`;
  if (/^Too small: expected string to have >=1 characters$/.test(message)) return 'Required.';
  return message;
}
