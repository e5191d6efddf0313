/**
 * The generated text, appended imperatively once per frame from the live store (no React
 * render per token). Keeps the view pinned to the bottom while the user has not scrolled up.
 */
import { useEffect, useMemo, useRef } from 'react';
import { liveStore } from './live-store.ts';
import { frames } from '../core/scheduler.ts';

interface Props {
  requestId: string | null;
  /** The record's text limit was reached: the text stops there (times and tokens go on). */
  capped?: boolean;
}

export function OutputText({ requestId, capped = false }: Props) {
  const boxRef = useRef<HTMLDivElement>(null);
  const textRef = useRef<HTMLPreElement>(null);
  const reasoningRef = useRef<HTMLPreElement>(null);
  const reasoningWrapRef = useRef<HTMLDetailsElement>(null);
  const state = useRef({ id: null as string | null, len: 0, final: false });
  const idRef = useRef(requestId);
  idRef.current = requestId;

  const job = useMemo(
    () => () => {
      const pre = textRef.current;
      const box = boxRef.current;
      if (!pre || !box) return;
      const id = idRef.current;
      const r = liveStore.get(id);
      const s = state.current;
      const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
      if (s.id !== id || !r) {
        pre.textContent = '';
        s.id = id;
        s.len = 0;
        s.final = false;
      }
      if (!r) return;
      const full = r.cols.fullText;
      if (r.final && !s.final) {
        // The final record is authoritative (it also repairs rows missed during a reconnect).
        pre.textContent = full;
        s.final = true;
        const reasoning = r.final.reasoning;
        if (reasoningRef.current && reasoningWrapRef.current) {
          reasoningRef.current.textContent = reasoning;
          reasoningWrapRef.current.hidden = reasoning === '';
        }
      } else if (full.length > s.len) {
        pre.append(document.createTextNode(full.slice(s.len)));
      }
      s.len = full.length;
      pre.classList.toggle('streaming', !r.final);
      if (stick) box.scrollTop = box.scrollHeight;
    },
    [],
  );

  useEffect(() => {
    if (reasoningWrapRef.current) reasoningWrapRef.current.hidden = true;
    const off = liveStore.subscribe((id) => {
      if (id === idRef.current) frames.schedule(job);
    });
    frames.schedule(job);
    return () => {
      off();
    };
  }, [requestId, job]);

  return (
    <section className="card output" aria-label="Output text">
      <header className="card-head">
        <h3>Output</h3>
        {capped && (
          <span
            className="muted"
            data-testid="output-capped"
            title="TOKENSCOPE_MAX_RECORD_MB raises the limit"
          >
            text kept up to the request&apos;s record limit (64 MiB); every event&apos;s time and tokens are
            still counted
          </span>
        )}
      </header>
      <details ref={reasoningWrapRef} className="reasoning" hidden>
        <summary>Reasoning</summary>
        <pre ref={reasoningRef} className="output-text" />
      </details>
      <div className="output-box" ref={boxRef}>
        <pre ref={textRef} className="output-text" data-testid="output-text" />
      </div>
    </section>
  );
}
