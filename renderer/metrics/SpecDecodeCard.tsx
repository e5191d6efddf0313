/**
 * The metrics panel's speculative-decoding card over the panel's window: the draft acceptance
 * rate, the mean acceptance length (tokens a verification step yields, the bonus token included:
 * vLLM's definition) and, where the server counts them, the per-position acceptance rates as bars
 * on a 0–100 % axis. Numbers from shared/metrics/spec-decode.ts (vLLM's counters over the window,
 * SGLang's gauges averaged); a server without them says so, never zeros.
 */
import { C } from '../core/charts/theme.ts';
import type { PanelData } from './panel-data.ts';
import type { CardContext } from './card-context.ts';
import { ChartCard } from './ChartCard.tsx';

const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

function PositionBars({ rates }: { rates: readonly number[] }) {
  return (
    <div className="specd-bars" role="img" aria-label="Acceptance rate by draft position, percent of drafts">
      {rates.map((r, i) => (
        <div className="specd-bar-row" key={i} data-testid="spec-position">
          <span className="specd-pos">pos {i + 1}</span>
          <span className="specd-track">
            <span
              className="specd-fill"
              style={{ width: `${Math.max(0, Math.min(1, r)) * 100}%`, background: C.content }}
            />
          </span>
          <b className="specd-val">{pct(r)}</b>
        </div>
      ))}
      <div className="specd-axis" aria-hidden>
        <span />
        <span className="specd-ticks">
          <span>0</span>
          <span>50</span>
          <span>100 %</span>
        </span>
        <span />
      </div>
      <p className="specd-axis-label">drafts with positions 1…i all accepted, % of drafts</p>
    </div>
  );
}

export function SpecDecodeCard({ data, ctx }: { data: PanelData; ctx: CardContext }) {
  const sd = data.specDecode;
  const rate = sd?.acceptanceRate ?? null;
  const length = sd?.meanAcceptanceLength ?? null;
  const source =
    sd === null
      ? ''
      : sd.source === 'counters'
        ? `Over the window: ${sd.drafts ?? 0} drafts, ${sd.draftTokens ?? 0} draft tokens, ${sd.acceptedTokens ?? 0} accepted (the server's counters).`
        : `SGLang's gauges (each its last log interval), mean of ${sd.scrapes} scrapes; SGLang exports no per-position counts.`;
  const empty =
    sd === null
      ? (ctx.waitFirst ?? ctx.notExposed)
      : length === null
        ? 'No drafts verified in this window'
        : null;
  return (
    <ChartCard
      title="Speculative decoding"
      definition="Acceptance rate: accepted ÷ draft tokens. Mean acceptance length: tokens a verification step yields, the target model's own token included (1 + accepted ÷ drafts, vLLM's definition; SGLang's spec_accept_length). By position: the share of drafts whose first i tokens were all accepted."
      testId="metrics-spec-decode"
      legend={[
        { name: 'acceptance rate', color: C.content, kind: 'none', value: pct(rate) },
        {
          name: 'mean acceptance length',
          color: C.content,
          kind: 'none',
          value: length === null ? '—' : `${length.toFixed(2)} tok/step`,
        },
      ]}
      caption={empty === null ? source : undefined}
    >
      <div className="mchart-body specd-body" data-testid="metrics-spec-decode">
        {empty !== null ? (
          <p className="specd-empty">{empty}</p>
        ) : sd?.perPosition ? (
          <PositionBars rates={sd.perPosition} />
        ) : (
          <p className="specd-empty">This server exports no per-position counts</p>
        )}
      </div>
    </ChartCard>
  );
}
