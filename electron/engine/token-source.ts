import type { RequestRecord } from '../../shared/record.ts';
import type { TokenSource } from '../../shared/request.ts';
import { computeRequestStats } from '../../shared/stats/request-stats.ts';

/** Where the output token count comes from; one rule, defined in shared/stats/request-stats.ts. */
export function computeTokenSource(rec: RequestRecord): TokenSource {
  return computeRequestStats(rec).tokenSource;
}
