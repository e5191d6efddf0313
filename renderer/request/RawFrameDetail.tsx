/** One raw frame in full: the data as received (pretty-printed when it is JSON) and its text delta. */
import { showText } from '../../shared/format.ts';
import { flagNames, tokenLabel } from './timeline/event-kind.ts';
import { prettyBody } from './ErrorView.tsx';

export interface FrameSource {
  n: number;
  t: ArrayLike<number>;
  tokens: ArrayLike<number>;
  flags: ArrayLike<number>;
  size: ArrayLike<number>;
  text: string[];
  raw: string[] | null;
}

interface Props {
  source: FrameSource;
  index: number;
  onClose: () => void;
}

export function RawFrameDetail({ source, index, onClose }: Props) {
  const raw = source.raw?.[index] ?? '';
  const pretty = prettyBody(raw);
  return (
    <div className="rf-detail" data-testid="raw-frame-detail">
      <div className="rf-detail-head">
        <b>event #{index}</b>
        <span>{source.t[index]!.toFixed(2)} ms</span>
        <span>{tokenLabel(source.tokens[index]!, source.flags[index]!)} tokens</span>
        <span>{flagNames(source.flags[index]!).join(', ')}</span>
        <span>{source.size[index]} B</span>
        <span className="mono">text {showText(source.text[index] ?? '', 120)}</span>
        <button type="button" className="btn small ghost" onClick={onClose} aria-label="Close frame detail">
          Close
        </button>
      </div>
      <pre className="mono">{raw === '' ? '(no raw data kept for this event)' : pretty.text}</pre>
    </div>
  );
}
