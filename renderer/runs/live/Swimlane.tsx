/**
 * The run swimlane: a thin React shell around canvas drawing (runs/swimlane-draw.ts) from the
 * lane store. While the run goes it redraws every animation frame (the view follows time, moved
 * smoothly between the core's 4 Hz progress ticks); React renders only on hover changes. The
 * canvas state and its handlers are in runs/use-swimlane.ts.
 */
import { fmtLatency } from '../../core/format.ts';
import type { LaneStore } from './lane-store.ts';
import { NO_ZOOM } from './swimlane-zoom.ts';
import { laneState, SWIM_HEIGHT } from './swimlane-draw.ts';
import { useSwimCanvas, useSwimPointer, useWheelZoom } from './use-swimlane.ts';

interface Props {
  store: LaneStore;
  /** Follow the live run's clock (else: the whole run, static). */
  live: boolean;
  testId?: string;
}

export function Swimlane({ store, live, testId = 'swimlane' }: Props) {
  const sw = useSwimCanvas(store, live);
  useWheelZoom(sw);
  const { tip, onDown, onUp, onMove, onLeave } = useSwimPointer(sw);

  return (
    <div className="swimlane" ref={sw.wrapRef} data-testid={testId} style={{ height: SWIM_HEIGHT }}>
      <canvas
        ref={sw.canvasRef}
        role="img"
        aria-label="Swimlane: one lane per request (queue wait, waiting for the first token, generating with a tick per token event; failures red)"
        style={{ width: '100%', height: SWIM_HEIGHT }}
        onMouseMove={onMove}
        onMouseLeave={() => {
          onUp();
          onLeave();
        }}
        onMouseDown={onDown}
        onMouseUp={onUp}
        onDoubleClick={() => sw.setZoom(NO_ZOOM)}
        data-zoomed={sw.zoomed ? 'true' : 'false'}
      />

      {tip && tip.lane < store.n && (
        <LaneTip store={store} lane={tip.lane} x={tip.x} y={tip.y} width={sw.widthRef.current} />
      )}
    </div>
  );
}

function LaneTip({
  store,
  lane,
  x,
  y,
  width,
}: {
  store: LaneStore;
  lane: number;
  x: number;
  y: number;
  width: number;
}) {
  const state = laneState(store, lane);
  const st = store.startedMs[lane]!;
  const end = store.endMs[lane]!;
  const ttft = store.ttftMs[lane]!;
  const queue = st - store.arrivedMs[lane]!;
  const left = x + 260 > width ? Math.max(0, x - 250) : x + 14;
  return (
    <div className="tooltip swim-tip" style={{ left, top: Math.max(0, y - 10) }} data-testid="swimlane-tip">
      <div className="tooltip-title">
        {store.ids[lane]} · <span className={`swim-state ${state}`}>{state === 'ok' ? 'done' : state}</span>
      </div>
      <table>
        <tbody>
          <tr>
            <th>sent at</th>
            <td>{(st / 1000).toFixed(3)} s</td>
          </tr>
          <tr>
            <th>queue wait</th>
            <td>{fmtLatency(queue)}</td>
          </tr>
          <tr>
            <th>TTFT</th>
            <td>{Number.isNaN(ttft) ? '—' : fmtLatency(ttft)}</td>
          </tr>
          <tr>
            <th>E2E</th>
            <td>{Number.isNaN(end) ? 'running' : fmtLatency(end - st)}</td>
          </tr>
          <tr>
            <th>output tokens</th>
            <td>{store.outTokens[lane]}</td>
          </tr>
        </tbody>
      </table>
      {store.errors.get(lane) && <div className="swim-err">{store.errors.get(lane)}</div>}
    </div>
  );
}
