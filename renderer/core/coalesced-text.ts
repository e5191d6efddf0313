/**
 * Coalesced gaps in words, for the run summary, the live percentiles and the debugger's statistics:
 * gaps between content events one socket read carried together (~0 ms by construction,
 * shared/stats/request-stats.ts), left out of Tokenscope's ITL and kept in vLLM's.
 */

// The share in words is the terminal's too (`tokenscope probe`): one definition, in shared/.
export { coalescedShareText } from '../../shared/stats/request-itl.ts';

export const COALESCED_DEF =
  "Gaps between two content events that arrived in one socket read (the client read late, so both got the read's time and the gap is ~0 ms by construction: not a measurement of the server). Left out of Tokenscope's ITL per chunk and per token; vLLM's ITL keeps them, as vLLM's client records them too.";
