// @vitest-environment happy-dom
/**
 * The Sweep form says which workload fields a plan uses: in auto mode the rate is disabled with a
 * note (each step sets it) and the max concurrency says it caps the rate steps; a concurrency plan
 * disables both. The plan's hints wrap instead of being cut off.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TargetView } from '../../shared/api.ts';
import { setTransport } from '../core/api.ts';
import { useAppStore } from '../core/app-store.ts';
import { useRunsStore } from '../runs/run-store.ts';
import { defaultDraft } from '../runs/form/workload-draft.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { RunsTabSidebar } from './RunsTabSidebar.tsx';
import { DEFAULT_PLAN, useSweepStore } from './sweep-store.ts';

const SIM: TargetView = {
  id: 'builtin-sim',
  name: 'Built-in simulator',
  baseUrl: 'http://127.0.0.1:8000',
  dialect: 'openai-chat',
  hasApiKey: false,
  builtin: true,
};

beforeEach(() => {
  setTransport(
    new FakeTransport({
      listModels: () => ({ ok: true, value: { models: ['tokenscope-sim'], source: '/v1/models' } }),
      listSweeps: () => ({ ok: true, value: { sweeps: [] } }),
    }),
  );
  useAppStore.setState({ targets: [SIM], targetsLoaded: true, selectedTargetId: null });
  useRunsStore.setState({ draft: defaultDraft(), view: { kind: 'new' }, targetId: null });
  useSweepStore.setState({ mode: 'sweep', plan: { ...DEFAULT_PLAN, kind: 'auto' }, issues: [] });
});
afterEach(() => {
  cleanup();
  setTransport(null);
});

const hintOf = (el: HTMLElement): HTMLElement => el.closest('.field')!.querySelector('.field-hint')!;

describe('the Sweep form', () => {
  it('in auto mode disables the rate with a note and says the concurrency caps the rate steps', async () => {
    render(<RunsTabSidebar />);
    await act(async () => {});
    const rate = screen.getByTestId('run-rate') as HTMLInputElement;
    expect(rate.disabled).toBe(true);
    expect(rate.value).toBe('');
    expect(hintOf(rate).textContent).toMatch(/^Not used: each step sets its own/);
    const cap = screen.getByTestId('run-concurrency') as HTMLInputElement;
    expect(cap.disabled).toBe(false);
    expect(cap.value).toBe('32');
    expect(hintOf(cap).textContent).toMatch(/^Caps every rate step, the rate-inf ceiling too/);
    expect(hintOf(cap).className).toBe('field-hint wrap');
    // The plan's own hint wraps too.
    expect(hintOf(screen.getByTestId('sweep-kind')).className).toBe('field-hint wrap');
  });

  it('with concurrencies disables both load fields; an SLO search shows its whole hint', async () => {
    render(<RunsTabSidebar />);
    await act(async () => {});
    fireEvent.change(screen.getByTestId('sweep-kind'), { target: { value: 'concurrency' } });
    expect((screen.getByTestId('run-concurrency') as HTMLInputElement).disabled).toBe(true);
    expect(hintOf(screen.getByTestId('run-concurrency')).textContent).toMatch(
      /one of the concurrencies above/,
    );
    expect((screen.getByTestId('run-rate') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('sweep-kind'), { target: { value: 'slo' } });
    expect((screen.getByTestId('run-concurrency') as HTMLInputElement).disabled).toBe(false);
    const slo = hintOf(screen.getByTestId('sweep-slo'));
    expect(slo.className).toBe('field-hint wrap');
    expect(slo.textContent).toContain('error_rate');
    // Not squeezed into half the row beside "Search".
    expect(screen.getByTestId('sweep-slo').closest('.field-pair')).toBeNull();
  });
});
