/**
 * Who may drive the simulator. It has no token (benchmark clients, curl and the app's own core
 * call it as they would call vLLM), so it takes web mode's other two checks (serve-guard.ts):
 * - the Host header names this machine (loopback names, an IP literal, the bound host, or a name
 *   given with `--allow-host`): a page on a rebound DNS name is refused;
 * - no foreign Origin: browsers put an Origin on every cross-site POST (and a `fetch` in no-cors
 *   mode still sends it), while the clients the simulator is for send none. The simulator serves
 *   no pages, so any Origin but its own address is another site's page trying to drive it.
 */
import type { IncomingMessage } from 'node:http';
import { hostAllowed } from '../platform/host-guard.ts';

/** Why the request is refused, or null when it may go on. */
export function refusal(
  req: IncomingMessage,
  boundHost: string,
  allowedHosts: readonly string[],
): string | null {
  const host = req.headers.host;
  if (!hostAllowed(host, boundHost, allowedHosts))
    return 'Host not allowed: the simulator answers loopback names, IP addresses and --allow-host names only';
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`)
    return 'Cross-origin requests are refused: the simulator is not for pages of other sites';
  return null;
}
