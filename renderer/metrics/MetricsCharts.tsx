/**
 * The key server concepts over the panel's window, on one wall-clock axis with this client's
 * requests: requests running/waiting (+ this client's in flight), server TTFT quantiles (+ each
 * client TTFT), token throughput, KV-cache usage, ITL, E2E (+ client E2E), queue time and the
 * prefix-cache hit rate. Values come from metrics/panel-data.ts; this file only lays them out.
 */
import { useMemo } from 'react';
import { PROFILES } from '../../shared/metrics/profiles.ts';
import type { ProfileId } from '../../shared/metrics/profile-types.ts';
import { clientTokens } from '../core/client-tokens.ts';
import type { RequestSummary } from '../../shared/api.ts';
import {
  clientE2ePoints,
  clientTtftPoints,
  inFlightSeries,
  type ChartPeaks,
  type PanelData,
} from './panel-data.ts';
import { cardContext } from './card-context.ts';
import { LatencyCard } from './LatencyCard.tsx';
import { KvCacheCard } from './KvCacheCard.tsx';
import { PrefixHitCard } from './PrefixHitCard.tsx';
import { RequestsCard } from './RequestsCard.tsx';
import { ThroughputCard } from './ThroughputCard.tsx';
import { SpecDecodeCard } from './SpecDecodeCard.tsx';

interface Props {
  targetId: string;
  /** The server's profile, once scraped: what its counters mean (e.g. counted at a request's end). */
  profile?: ProfileId;
  profileName: string;
  data: PanelData;
  domain: [number, number];
  requests: readonly RequestSummary[];
  /** Scrapes in the store for this target (0 and 1: too few to chart). */
  scrapes: number;
  /** The scraper is failing right now. */
  failing: boolean;
  chartWidth?: number;
  /** Side by side with another target: each chart's y axis reaches both targets' peak (one scale). */
  sharedPeaks?: ChartPeaks;
}

export function MetricsCharts({
  targetId,
  profile,
  profileName,
  data,
  domain,
  requests,
  scrapes,
  failing,
  chartWidth,
  sharedPeaks,
}: Props) {
  const [start, end] = domain;
  const inFlight = useMemo(
    () => inFlightSeries(requests, targetId, start, end),
    [requests, targetId, start, end],
  );
  const clientTtft = useMemo(
    () => clientTtftPoints(requests, targetId, start, end),
    [requests, targetId, start, end],
  );
  const clientE2e = useMemo(
    () => clientE2ePoints(requests, targetId, start, end),
    [requests, targetId, start, end],
  );
  // This client's own tokens/s beside the server's counters (core/client-tokens.ts).
  const stepMs = data.resolutionMs > 0 ? data.resolutionMs : 1000;
  const client = useMemo(
    () => clientTokens.series(targetId, start, end, stepMs, Date.now()),
    [targetId, start, end, stepMs],
  );
  const p = profile ? PROFILES[profile] : null;
  const atEnd = p?.countedAtEnd?.includes('generationTokensTotal') ? p.label : null;
  const ctx = cardContext({ data, domain, width: chartWidth, profileName, scrapes, failing });
  const latency = data.latency;
  return (
    <div className="mgrid">
      <RequestsCard data={data} ctx={ctx} sharedPeaks={sharedPeaks} inFlight={inFlight} />
      <LatencyCard
        metric="ttft"
        latency={latency.ttft}
        client={{ points: clientTtft, name: 'client TTFT' }}
        sharedPeak={sharedPeaks?.ttft}
        ctx={ctx}
      />
      <ThroughputCard data={data} ctx={ctx} sharedPeaks={sharedPeaks} client={client} atEnd={atEnd} />
      <KvCacheCard data={data} ctx={ctx} sharedPeaks={sharedPeaks} />
      <LatencyCard metric="itl" latency={latency.itl} sharedPeak={sharedPeaks?.itl} ctx={ctx} />
      <LatencyCard
        metric="e2e"
        latency={latency.e2e}
        client={{ points: clientE2e, name: 'client E2E' }}
        sharedPeak={sharedPeaks?.e2e}
        ctx={ctx}
      />
      <LatencyCard metric="queue" latency={latency.queue} sharedPeak={sharedPeaks?.queue} ctx={ctx} />
      <PrefixHitCard data={data} ctx={ctx} />
      <SpecDecodeCard data={data} ctx={ctx} />
    </div>
  );
}
