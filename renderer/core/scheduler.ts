/**
 * One redraw per frame for the whole UI (Perfetto's raf scheduler, in miniature): views ask for
 * a draw whenever their data changes, as often as they like; each job runs at most once in the
 * next animation frame. Jobs of phase 1 run after all phase-0 draws of the same frame (the test
 * probe reads what the canvases just drew).
 * @internal exported for its tests
 */
export type FrameJob = () => void;

/** @internal exported for its tests */
export interface FrameHost {
  request(cb: () => void): void;
}

/** requestAnimationFrame when the page is visible; a timer otherwise (rAF stops in background tabs). */
const browserFrameHost: FrameHost = {
  request(cb) {
    const hidden = typeof document !== 'undefined' && document.visibilityState === 'hidden';
    if (!hidden && typeof requestAnimationFrame === 'function') requestAnimationFrame(() => cb());
    else setTimeout(cb, 50);
  },
};

/** @internal exported for its tests */
export class FrameScheduler {
  private readonly pending: [Set<FrameJob>, Set<FrameJob>] = [new Set(), new Set()];
  private scheduled = false;
  /** Frames run so far (tests read it). */
  frames = 0;

  constructor(private readonly host: FrameHost = browserFrameHost) {}

  /** Run `job` in the next frame (once, however often it is asked for before then). */
  schedule(job: FrameJob, phase: 0 | 1 = 0): void {
    this.pending[phase].add(job);
    if (!this.scheduled) {
      this.scheduled = true;
      this.host.request(() => this.run());
    }
  }

  cancel(job: FrameJob): void {
    this.pending[0].delete(job);
    this.pending[1].delete(job);
  }

  private run(): void {
    this.scheduled = false;
    this.frames++;
    for (const set of this.pending) {
      const jobs = [...set];
      set.clear();
      for (const job of jobs) {
        try {
          job();
        } catch (e) {
          // One broken view must not stop the others from drawing; the error still surfaces.
          console.error('frame job failed', e);
        }
      }
    }
  }
}

export const frames = new FrameScheduler();
