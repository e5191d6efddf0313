// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TargetView } from '../../shared/api.ts';
import { setTransport } from '../core/api.ts';
import { FakeTransport } from '../testing/fake-transport.ts';
import { ModelPicker } from './ModelPicker.tsx';

afterEach(() => {
  cleanup();
  setTransport(null);
});

const target = (baseUrl: string): TargetView => ({
  id: 'gpu-box',
  name: 'GPU box',
  baseUrl,
  dialect: 'openai-chat',
  hasApiKey: false,
  builtin: false,
});

describe('ModelPicker', () => {
  it('lists again when the target is saved with another URL: the old error does not stay', async () => {
    let up = false;
    const fake = new FakeTransport({
      listModels: () =>
        up
          ? { ok: true, value: { models: ['qwen3-8b'], source: '/v1/models' } }
          : { ok: false, error: { kind: 'network', message: 'connection refused' } },
    });
    setTransport(fake);
    const onChange = (): void => undefined;
    const { rerender } = render(
      <ModelPicker target={target('http://gpu-box:8001')} value="" onChange={onChange} />,
    );
    await waitFor(() => expect(screen.getByText(/connection refused/)).toBeTruthy());
    // The user fixes the port and saves: same target id, new URL.
    up = true;
    rerender(<ModelPicker target={target('http://gpu-box:8000')} value="" onChange={onChange} />);
    await waitFor(() => expect(screen.queryByText(/connection refused/)).toBeNull());
    await waitFor(() => expect(screen.getByRole('option', { name: 'qwen3-8b' })).toBeTruthy());
    expect(fake.calls.filter((c) => c.method === 'listModels')).toHaveLength(2);
  });
});
