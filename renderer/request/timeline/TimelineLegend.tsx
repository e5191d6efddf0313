/**
 * The timeline's legend, in the DOM (crisp text, selectable), with the same colours as the canvas.
 * A request that reasoned adds the reasoning colour (its answer keeps the content colour) and TTFAT.
 */
import { C } from '../../core/charts/theme.ts';

interface Props {
  lanes?: { label: string; color: string; name: string }[];
  /** Some request shown reasoned before answering (EV_REASONING events). */
  reasoning?: boolean;
}

export function TimelineLegend({ lanes, reasoning = false }: Props) {
  return (
    <ul className="legend" aria-label="Timeline legend">
      {lanes && lanes.length > 1 ? (
        lanes.map((l) => (
          <li key={l.label} title={`Content events of request ${l.label}; bar height ∝ tokens in the event`}>
            <i className="sw bar" style={{ background: l.color }} /> {l.label}: {l.name}
          </li>
        ))
      ) : (
        <li title="An event carrying generated tokens; bar height is proportional to its tokens">
          <i className="sw bar" style={{ background: C.content }} /> {reasoning ? 'answer' : 'content'}{' '}
          (height ∝ tokens)
        </li>
      )}
      {reasoning && (
        <li
          title="An event of the reasoning phase: reasoning (thinking) tokens and no answer text yet"
          data-testid="legend-reasoning"
        >
          <i className="sw bar" style={{ background: C.reasoning }} /> reasoning
        </li>
      )}
      <li title="Shared its socket read with other events: its time is that read's time">
        <i className="sw bar" style={{ background: C.coalesced }} /> coalesced
      </li>
      <li title="No generated token: role-only chunk, empty delta">
        <i className="sw circle" style={{ borderColor: C.empty }} /> empty
      </li>
      <li title="Carries token usage">
        <i className="sw diamond" style={{ background: C.usage }} /> usage
      </li>
      <li title="The dialect's end marker or a finish reason">
        <i className="sw square" style={{ background: C.terminal }} /> end / finish
      </li>
      <li title="An error event, or where the request failed">
        <i className="sw cross" style={{ color: C.error }}>
          ×
        </i>{' '}
        error
      </li>
      <li title="Gap between content events longer than 5 × the median ITL and 100 ms">
        <i className="sw band" /> stall
      </li>
      <li title="Arrival of the first event of any kind (TTFB-like)">
        <i className="sw vline dashed" style={{ borderColor: C.firstEvent }} /> first event
      </li>
      <li title="Arrival of the first event carrying a generated token">
        <i className="sw vline" style={{ borderColor: C.ttft }} /> TTFT
      </li>
      {reasoning && (
        <li title="Time to first answer token: the first event of the answer, after the reasoning">
          <i className="sw vline" style={{ borderColor: C.ttfat }} /> TTFAT
        </li>
      )}
    </ul>
  );
}
