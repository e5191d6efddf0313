// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { computeRequestStats } from '../../../shared/stats/request-stats.ts';
import { liveStore } from '../live-store.ts';
import { deriveSlot } from '../controller.ts';
import { EMPTY_SLOT, useRequestStore } from '../request-store.ts';
import { handMadeRecord } from '../../testing/record-fixture.ts';
import { RequestHeader } from '../RequestHeader.tsx';
import { Timeline } from './Timeline.tsx';

afterEach(() => {
  cleanup();
  useRequestStore.setState({ current: EMPTY_SLOT });
});

describe('Timeline + request-state probe', () => {
  it('reports the events drawn and the TTFT once the request is done', async () => {
    const rec = handMadeRecord({ id: 'probe-1' });
    render(
      <>
        <RequestHeader />
        <Timeline lanes={[{ requestId: 'probe-1', label: '', color: '#fff' }]} probe />
      </>,
    );
    const probe = screen.getByTestId('request-state');
    expect(probe.getAttribute('data-state')).toBe('idle');
    expect(screen.getByTestId('timeline-canvas')).toBeTruthy();

    act(() => {
      liveStore.finished({
        summary: {
          id: 'probe-1',
          targetId: 's',
          targetName: 'sim',
          model: 'm',
          dialect: 'openai-chat',
          startedAtWall: 0,
          state: 'done',
          ttftMs: 12.3456,
          e2eMs: 61.5,
          outputTokens: 4,
          errorKind: null,
          promptPreview: '',
        },
        input: { targetId: 's', model: 'm' },
        record: rec,
      });
      useRequestStore.setState({ current: deriveSlot('probe-1') });
    });
    await waitFor(() => expect(probe.getAttribute('data-state')).toBe('done'));
    expect(probe.getAttribute('data-request-id')).toBe('probe-1');
    expect(probe.getAttribute('data-events')).toBe(String(rec.events.n));
    expect(probe.getAttribute('data-ttft-ms')).toBe(String(computeRequestStats(rec).ttftMs));
    expect(probe.textContent).toBe('done');
  });
});
