/** Colours shared by the canvas drawing and the DOM legends (core/base.css uses the same values). */
export const C = {
  bg: '#11141a',
  plot: '#141820',
  grid: '#222833',
  axis: '#3a4250',
  tick: '#8b95a7',
  text: '#d5dbe5',
  muted: '#8b95a7',
  content: '#5b9dff',
  contentB: '#f07cc0',
  coalesced: '#ffb020',
  /** A content event of the reasoning phase (EV_REASONING): reasoning, no answer yet. */
  reasoning: '#9ad45a',
  empty: '#8b95a7',
  usage: '#b48cff',
  terminal: '#3ecf8e',
  error: '#ff5c5c',
  /** A request the user cancelled: neutral, not a failure. */
  cancelled: '#9aa4b2',
  ttft: '#22d3ee',
  /** Time to first answer token (requests with reasoning). */
  ttfat: '#f5d547',
  firstEvent: '#c0c7d2',
  end: '#6b7587',
  stall: 'rgba(255, 92, 92, 0.13)',
  stallEdge: 'rgba(255, 92, 92, 0.55)',
  hover: '#ffffff',
  /** Swimlane bands: waiting for a client slot, waiting for the first token, generating; a token tick. */
  laneQueue: 'rgba(139, 149, 167, 0.55)',
  laneWait: 'rgba(34, 211, 238, 0.55)',
  laneGen: 'rgba(91, 157, 255, 0.42)',
  laneTick: 'rgba(200, 222, 255, 0.85)',
} as const;

/** Recharts axis ticks. */
export const TICK = { fill: C.tick, fontSize: 11 };
/** Recharts tooltips: the box and its label. */
export const TIP_STYLE = { background: '#1b2029', border: '1px solid #2e3542', fontSize: 12 };
export const TIP_LABEL_STYLE = { color: C.text };

export const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
