/**
 * What every gauge and rate card of the metrics panel (RequestsCard, ThroughputCard, KvCacheCard,
 * PrefixHitCard) is given. The latency cards are LatencyCard.tsx.
 */
import type { ChartPeaks, PanelData } from './panel-data.ts';
import type { CardContext } from './card-context.ts';

export interface CardProps {
  data: PanelData;
  ctx: CardContext;
  /** Side by side: one y scale per chart across both targets. */
  sharedPeaks?: ChartPeaks;
}
