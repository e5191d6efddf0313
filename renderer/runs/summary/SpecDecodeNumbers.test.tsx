// @vitest-environment happy-dom
/** The run view's server card shows speculative decoding where the server had it, nothing where not. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { runDetail } from '../../testing/run-fixture.ts';
import { serverSide } from '../../testing/server-fixture.ts';
import { ServerSideCard } from './ServerSideCard.tsx';

afterEach(cleanup);

describe('speculative decoding in the run view', () => {
  it('rate, mean acceptance length, per position and the counts under the server numbers', () => {
    const d = runDetail(5);
    const server = {
      ...serverSide,
      specDecode: {
        source: 'counters' as const,
        drafts: 440,
        draftTokens: 1320,
        acceptedTokens: 660,
        acceptanceRate: 0.5,
        meanAcceptanceLength: 2.5,
        perPosition: [0.7, 0.5, 0.3],
        scrapes: 4,
      },
    };
    render(<ServerSideCard s={{ ...d.summary, server }} clientInFlight={[]} xMax={1} width={600} />);
    const t = screen.getByTestId('sum-spec-decode').textContent ?? '';
    expect(t).toContain('Acceptance rate (%)50.0');
    expect(t).toContain('Mean acceptance length2.50');
    expect(t).toContain('Accepted by position (%)70.0 / 50.0 / 30.0');
    expect(t).toContain('440 / 1320 / 660');
  });

  it('a server without speculative decoding: no rows (and never zeros)', () => {
    const d = runDetail(5);
    render(
      <ServerSideCard
        s={{ ...d.summary, server: { ...serverSide, specDecode: null } }}
        clientInFlight={[]}
        xMax={1}
        width={600}
      />,
    );
    expect(screen.queryByTestId('sum-spec-decode')).toBeNull();
  });
});
