// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Field } from './Field.tsx';

afterEach(cleanup);

describe('Field', () => {
  it('shows the error instead of the hint by default', () => {
    render(
      <Field label="Rate" hint="requests per second" error="Not a number.">
        <input />
      </Field>,
    );
    expect(screen.queryByText('requests per second')).toBeNull();
    expect(screen.getByText('Not a number.').className).toBe('field-error');
  });

  it('with keepHint shows the hint and then the error, both describing the control', () => {
    const { container } = render(
      <Field label="Base URL" id="u" hint="The server root." error="Not a URL." keepHint after={<p>after</p>}>
        <input data-testid="u" />
      </Field>,
    );
    const texts = [...container.querySelectorAll('p')].map((p) => p.textContent);
    expect(texts).toEqual(['The server root.', 'Not a URL.', 'after']);
    const input = screen.getByTestId('u');
    expect(input.getAttribute('aria-describedby')).toBe('u-hint u-error');
    expect(document.getElementById('u-hint')?.textContent).toBe('The server root.');
    expect(document.getElementById('u-error')?.textContent).toBe('Not a URL.');
    // The label names the control.
    expect(screen.getByLabelText('Base URL')).toBe(input);
  });

  it('describes the control by what is shown: the hint alone, or nothing', () => {
    const { rerender } = render(
      <Field label="Name" id="n" hint="A name." keepHint>
        <input data-testid="n" />
      </Field>,
    );
    expect(screen.getByTestId('n').getAttribute('aria-describedby')).toBe('n-hint');
    rerender(
      <Field label="Name" id="n">
        <input data-testid="n" />
      </Field>,
    );
    expect(screen.getByTestId('n').hasAttribute('aria-describedby')).toBe(false);
  });
});
