import { redactUrlString } from '../../shared/redact.ts';
export { resolveEndpoint } from '../../shared/endpoint.ts';

/** The URL without user/password, for records and logs. */
export function redactUrl(u: URL): string {
  const c = new URL(u.toString());
  c.username = '';
  c.password = '';
  // Secret-looking query values (api_key, token, sig…) too: this URL goes into records and files.
  return redactUrlString(c.toString());
}
