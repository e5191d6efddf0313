/**
 * Batching for the renderer: whatever the event rate, at most one flush per interval, and no timer
 * at all while nothing streams (VS Code's TerminalDataBufferer does the same for terminal output).
 * Used by the request service (every event of the requests on screen, ~30/s) and the run service
 * (the swimlanes of a load run, 10/s).
 */
export class StreamBatcher {
  private timer: ReturnType<typeof setInterval> | null = null;

  /**
   * `flush` sends what gathered since the last call and says whether more may come (true keeps
   * the timer; false stops it until the next `poke`).
   */
  constructor(
    private readonly intervalMs: number,
    private readonly flush: () => boolean,
  ) {}

  /** Something arrived (or a stream began): a flush follows within the interval. */
  poke(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref?.();
  }

  /** Flush at once (a stream ended), then carry on as the flush says. */
  flushNow(): void {
    this.tick();
  }

  get running(): boolean {
    return this.timer !== null;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private tick(): void {
    if (!this.flush()) this.dispose();
  }
}
