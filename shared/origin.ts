/**
 * A URL's origin (scheme, host, port), '' when it does not parse. One definition for both sides,
 * because it decides whether a target's API key and secret headers follow it: the core keeps them
 * only while the base URL stays on the same origin (app/targets-service.ts), sends them only to an
 * endpoint on the target's origin (app/requests-service.ts), and the target editor warns before a
 * save that would drop them (renderer/targets/target-input.ts). Surrounding white space is ignored,
 * as the form ignores it.
 */
export function originOf(u: string): string {
  try {
    return new URL(u.trim()).origin;
  } catch {
    return '';
  }
}
