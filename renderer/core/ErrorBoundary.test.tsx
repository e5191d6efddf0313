// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { ErrorBoundary } from './ErrorBoundary.tsx';

afterEach(cleanup);

let broken = true;
function Fragile({ label }: { label: string }) {
  if (broken) throw new Error(`cannot read properties of a damaged summary (${label})`);
  return <p>{label} fine</p>;
}

function Page() {
  const [run, setRun] = useState('a');
  return (
    <div>
      <button onClick={() => setRun('b')}>open b</button>
      <ErrorBoundary name="Run summary" resetKey={run}>
        <Fragile label={run} />
      </ErrorBoundary>
      <ErrorBoundary name="Runs">
        <p>the history still works</p>
      </ErrorBoundary>
    </div>
  );
}

describe('ErrorBoundary', () => {
  it('keeps a throwing panel to itself, says what failed, and recovers on retry or a new subject', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken = true;
    render(<Page />);
    expect(screen.getByTestId('panel-failed').textContent).toMatch(/Run summary: this panel failed/);
    expect(screen.getByTestId('panel-failed').textContent).toMatch(/damaged summary \(a\)/);
    expect(screen.getByText('the history still works')).toBeTruthy();
    // Still broken: trying again fails again, contained.
    fireEvent.click(screen.getByText('Try again'));
    expect(screen.getByTestId('panel-failed')).toBeTruthy();
    // Another run opened, and it is fine: the failure is gone.
    broken = false;
    fireEvent.click(screen.getByText('open b'));
    expect(screen.queryByTestId('panel-failed')).toBeNull();
    expect(screen.getByText('b fine')).toBeTruthy();
    warn.mockRestore();
    err.mockRestore();
  });
});
