/**
 * The Runs tab's main area in Sweep mode: the sweep going on (its step in progress, Cancel, what
 * the core noted), the curves of it and of every sweep file opened (overlaid, a colour each), the
 * steps as the CLI prints them, and the knee and SLO answer in words.
 */
import { useMemo } from 'react';
import { loadText, stepHeader, stepRow, sweepFooter } from '../../shared/runs/sweep/text.ts';
import { sweepStreams } from '../../shared/runs/sweep/pooling.ts';
import { ErrorBoundary } from '../core/ErrorBoundary.tsx';
import { cancelSweep, closeSweep } from './sweep-actions.ts';
import { colorOf, type SweepSource } from './sweep-chart-data.ts';
import { useSweepStore, type LiveSweep, type OpenedSweep } from './sweep-store.ts';
import { SweepCharts } from './SweepCharts.tsx';

function liveLabel(l: LiveSweep): string {
  return l.name ?? `${l.url.replace(/^https?:\/\//, '')} · ${l.key.replace(/\.json$/, '')}`;
}

/** The live sweep (while its file is not also opened) first, then the opened files. */
function sourcesOf(live: LiveSweep | null, opened: readonly OpenedSweep[]): SweepSource[] {
  const out: SweepSource[] = [];
  if (live?.file && !opened.some((o) => o.id === live.key))
    out.push({ id: live.key, label: liveLabel(live), file: live.file });
  for (const o of opened) out.push({ id: o.id, label: o.label, file: o.file });
  return out;
}

function LiveStatus({ live }: { live: LiveSweep }) {
  const c = live.current;
  return (
    <section className="card sweep-status" data-testid="sweep-status" data-finished={live.finished}>
      <header className="card-head">
        <h3>{live.finished ? 'Sweep finished' : 'Sweep going on'}</h3>
        <span className="muted">
          {liveLabel(live)} · {live.model}
        </span>
        <span className="spacer" />
        {!live.finished && (
          <button
            type="button"
            className="btn tiny"
            data-testid="sweep-cancel"
            onClick={() => void cancelSweep()}
          >
            Cancel sweep
          </button>
        )}
      </header>
      {c && (
        <div className="sweep-running" data-testid="sweep-running">
          Step {c.index + 1} running: {loadText(c.load)}
          {c.role !== 'step' && c.role !== 'search' ? ` (${c.role})` : ''} — {Math.round(c.fraction * 100)} %
          <progress max={1} value={c.fraction} />
        </div>
      )}
      {live.error && <div className="banner bad">The sweep failed: {live.error}</div>}
      {live.cancelled && <div className="banner warn">Cancelled: the steps that finished are kept.</div>}
      {live.notes.length > 0 && (
        <ul className="sweep-notes" data-testid="sweep-notes">
          {live.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StepsTable({ source, live }: { source: SweepSource; live: LiveSweep | null }) {
  const isLive = live?.key === source.id;
  const c = isLive ? live!.current : null;
  const file = source.file as Parameters<typeof sweepFooter>[0];
  const streams = sweepStreams(file);
  const rows = [stepHeader(streams), ...file.steps.map((s) => stepRow(s, streams))];
  if (c)
    rows.push(
      `${String(c.index + 1).padStart(4)} ${loadText(c.load).padStart(14)}  … running (${Math.round(c.fraction * 100)} %)`,
    );
  const footer = isLive && !live!.finished ? '' : sweepFooter(file);
  return (
    <section className="card" data-testid="sweep-table">
      <header className="card-head">
        <h3>Steps · {source.label}</h3>
      </header>
      <pre className="sweep-table">{rows.join('\n')}</pre>
      {footer && (
        <pre className="sweep-footer" data-testid="sweep-footer">
          {footer.trim()}
        </pre>
      )}
    </section>
  );
}

export function SweepView() {
  const live = useSweepStore((s) => s.live);
  const opened = useSweepStore((s) => s.opened);
  const sources = useMemo(() => sourcesOf(live, opened), [live, opened]);
  return (
    <div className="runs-view sweep-view" data-testid="sweep-view">
      {live && <LiveStatus live={live} />}
      {opened.length > 0 && (
        <div className="sweep-legend" data-testid="sweep-opened">
          {sources.map((s, i) => (
            <span key={s.id} className="sweep-chip" style={{ borderColor: colorOf(i) }}>
              <i style={{ background: colorOf(i) }} /> {s.label}
              {opened.some((o) => o.id === s.id) && (
                <button
                  type="button"
                  className="btn tiny ghost"
                  aria-label={`Close ${s.label}`}
                  onClick={() => closeSweep(s.id)}
                >
                  ✕
                </button>
              )}
            </span>
          ))}
        </div>
      )}
      {sources.length === 0 && !live ? (
        <SweepIntro />
      ) : (
        <ErrorBoundary name="Sweep charts" resetKey={sources.map((s) => s.id).join()}>
          <SweepCharts sources={sources} running={live && !live.finished ? live.current : null} />
          {sources.map((s) => (
            <StepsTable key={s.id} source={s} live={live} />
          ))}
        </ErrorBoundary>
      )}
    </div>
  );
}

function SweepIntro() {
  return (
    <section className="card runs-intro">
      <h2>Load sweeps</h2>
      <p>
        A sweep runs the workload on the left at a series of loads — concurrencies, rates, or <b>auto</b> (a
        concurrency-1 baseline, a rate-inf ceiling, then rates evenly between) — and draws latency against
        throughput as each step finishes, with the <b>knee</b> marked: the last load where more load still
        bought throughput cheaply. Give SLO terms to search for the highest load that meets them.
      </p>
      <p className="muted">
        Every step is an ordinary run file; the sweep file ties them together in the runs folder. Open two
        sweep files (two servers, two configs) to overlay their curves. The same runs headless:{' '}
        <code>tokenscope sweep --rate auto</code>.
      </p>
    </section>
  );
}
