import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamBatcher } from './stream-batcher.ts';

afterEach(() => vi.useRealTimers());

describe('StreamBatcher', () => {
  it('one flush per interval however often it is poked; no timer once the flush says it is idle', () => {
    vi.useFakeTimers();
    let busy = 3;
    const flush = vi.fn(() => --busy > 0);
    const b = new StreamBatcher(33, flush);
    for (let i = 0; i < 100; i++) b.poke();
    expect(b.running).toBe(true);
    vi.advanceTimersByTime(33);
    expect(flush).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(66);
    expect(flush).toHaveBeenCalledTimes(3);
    expect(b.running).toBe(false); // the third flush said nothing more comes
    vi.advanceTimersByTime(1000);
    expect(flush).toHaveBeenCalledTimes(3);
    busy = 10;
    b.poke();
    b.flushNow();
    expect(flush).toHaveBeenCalledTimes(4);
    b.dispose();
    vi.advanceTimersByTime(1000);
    expect(flush).toHaveBeenCalledTimes(4);
  });
});
