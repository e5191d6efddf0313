/**
 * The current request: error (if any), timeline, output, histogram, stats, comparison, raw frames
 * — or, for embeddings and rerank (one JSON answer, no token stream), its phases, sizes, usage and
 * readable result instead (pooling/PoolingView.tsx).
 */
import { useMemo } from 'react';
import { C } from '../core/charts/theme.ts';
import { liveStore } from './live-store.ts';
import { useRequestStore } from './request-store.ts';
import { isPoolingDialect } from './pooling/pooling-input.ts';
import { PoolingView } from './pooling/PoolingView.tsx';
import { CompareView } from './CompareView.tsx';
import { ErrorView } from './ErrorView.tsx';
import { ItlHistogram } from './ItlHistogram.tsx';
import { ChunkTokensChart } from './ChunkTokensChart.tsx';
import { OutputText } from './OutputText.tsx';
import { RawFrames } from './RawFrames.tsx';
import { RequestHeader } from './RequestHeader.tsx';
import { RequestServerPhases } from './RequestServerPhases.tsx';
import { StatsPanel } from './StatsPanel.tsx';
import { Timeline } from './timeline/Timeline.tsx';
import { TimelineLegend } from './timeline/TimelineLegend.tsx';

const NO_VALUES: number[] = [];

export function RequestView() {
  const id = useRequestStore((s) => s.current.id);
  const stats = useRequestStore((s) => s.current.stats);
  const digest = useRequestStore((s) => s.current.digest);
  const compareId = useRequestStore((s) => s.compare.id);
  const lanes = useMemo(() => [{ requestId: id, label: '', color: C.content }], [id]);
  const error = digest?.error ?? null;
  const source = liveStore.get(id)?.cols ?? null;
  const dialect = useRequestStore((s) => s.current.summary?.dialect);
  if (dialect && isPoolingDialect(dialect)) return <PoolingView />;
  return (
    <div className="request-view">
      <RequestHeader />
      {error && stats && (
        <ErrorView
          error={error}
          partial={{
            events: stats.events,
            contentEvents: stats.contentEvents,
            outputTokens: stats.outputTokens,
            textChars: digest?.textChars ?? 0,
          }}
        />
      )}
      <section className="card timeline-card" aria-label="Token timeline">
        <header className="card-head">
          <h3 title="Each mark is one streamed event at its arrival time (ms since the request started, before connect)">
            Token timeline
          </h3>
          <TimelineLegend reasoning={stats?.reasoningTokens != null} />
        </header>
        <Timeline lanes={lanes} probe />
      </section>
      <RequestServerPhases requestId={id} />
      {compareId && <CompareView />}
      <div className="split">
        <div className="split-main">
          <OutputText requestId={id} capped={digest?.textCapped === true} />
          <ItlHistogram
            itlChunkMs={stats?.itlChunkMeasuredMs ?? NO_VALUES}
            itlTokenMs={stats?.itlTokenMeasuredMs ?? NO_VALUES}
          />
          <ChunkTokensChart source={source} events={stats?.events ?? 0} />
        </div>
        <StatsPanel stats={stats} digest={digest} />
      </div>
      <RawFrames source={source} count={digest?.events ?? 0} requestId={id} />
    </div>
  );
}
