/**
 * What every chart card of the metrics panel shares: the time axis, the chart width, the step
 * note, and what a card shows instead of a plot while there is nothing to draw (and why).
 */
import type { PanelData } from './panel-data.ts';

export interface CardContext {
  /** [start, end] of the shared time axis, epoch ms. */
  domain: [number, number];
  width?: number;
  /** How the series are stepped, for captions ("5 s steps"). */
  step: string;
  /** The overlay of a chart this server does not feed (before the first scrape: why nothing is known). */
  notExposed: string;
  /** The overlay until there are two scrapes; null after. */
  waitFirst: string | null;
  /** The overlay of a rate until there are two scrapes; null after. */
  waitRate: string | null;
}

function stepNote(resolutionMs: number): string {
  return resolutionMs > 0 ? `${resolutionMs / 1000} s steps` : 'per scrape interval';
}

export function cardContext(p: {
  data: PanelData;
  domain: [number, number];
  width?: number;
  profileName: string;
  /** Scrapes in the store for this target (0 and 1: too few to chart). */
  scrapes: number;
  /** The scraper is failing right now. */
  failing: boolean;
}): CardContext {
  const { scrapes, failing } = p;
  // Before the first scrape nothing is known, not even what the server exposes.
  const noData =
    scrapes === 0
      ? failing
        ? 'No scrape has succeeded yet (see above)'
        : 'Waiting for the first scrape…'
      : null;
  return {
    domain: p.domain,
    width: p.width,
    step: stepNote(p.data.resolutionMs),
    notExposed: noData ?? `Not exposed by this server (${p.profileName})`,
    waitFirst: noData ?? (scrapes < 2 ? 'Waiting for the first scrapes…' : null),
    waitRate: noData ?? (scrapes < 2 ? 'Rates need two scrapes…' : null),
  };
}
