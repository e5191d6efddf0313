// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_KIND_HELP } from '../../shared/errors.ts';
import { HTTP_ERROR } from '../testing/record-fixture.ts';
import { ErrorView, prettyBody } from './ErrorView.tsx';

afterEach(cleanup);

describe('ErrorView', () => {
  it('shows kind, code, status, message, help and the JSON body pretty-printed', () => {
    render(
      <ErrorView
        error={HTTP_ERROR}
        partial={{ events: 0, contentEvents: 0, outputTokens: 0, textChars: 0 }}
      />,
    );
    expect(screen.getByTestId('error-kind').textContent).toBe('http');
    expect(screen.getByTestId('error-code').textContent).toBe('status');
    expect(screen.getByTestId('error-status').textContent).toBe('HTTP 400');
    expect(screen.getByTestId('error-message').textContent).toBe('HTTP 400 Bad Request');
    expect(screen.getByText(ERROR_KIND_HELP.http)).toBeTruthy();
    expect(screen.getByText('at 4.20 ms')).toBeTruthy();
    expect(screen.getByTestId('error-body').textContent).toBe(
      JSON.stringify(JSON.parse(HTTP_ERROR.body!), null, 2),
    );
    expect(screen.getByTestId('error-partial').textContent).toBe('Nothing arrived before the failure.');
  });

  it('a cancel is its own neutral state: no alert, no red, no "timeout or cancel" help', () => {
    render(
      <ErrorView
        error={{ kind: 'client', code: 'cancelled', message: 'Cancelled by the user.', atMs: 812.5 }}
        partial={{ events: 12, contentEvents: 10, outputTokens: 10, textChars: 48 }}
      />,
    );
    const view = screen.getByTestId('cancelled-view');
    expect(view.getAttribute('role')).toBeNull();
    expect(view.className).not.toMatch(/kind-client/);
    expect(screen.getByTestId('error-kind').textContent).toBe('cancelled');
    expect(screen.getByTestId('error-message').textContent).toMatch(/^You cancelled this request/);
    expect(screen.queryByText(ERROR_KIND_HELP.client)).toBeNull();
    expect(screen.getByTestId('error-partial').textContent).toMatch(
      /^Kept what arrived before the cancel: 12 events/,
    );
    expect(screen.getByText('at 812.50 ms')).toBeTruthy();
  });

  it('says what was kept of a stream that failed midway', () => {
    render(
      <ErrorView
        error={{
          kind: 'server',
          code: 'error-event',
          message: 'engine overloaded',
          body: 'data: {"error": oops',
          atMs: 812.5,
        }}
        partial={{ events: 42, contentEvents: 40, outputTokens: 40, textChars: 173 }}
      />,
    );
    expect(screen.getByTestId('error-kind').textContent).toBe('server');
    expect(screen.getByTestId('error-partial').textContent).toMatch(
      /42 events, 40 with content \(40 tokens, 173 characters\)/,
    );
    // Not JSON: verbatim.
    expect(screen.getByTestId('error-body').textContent).toBe('data: {"error": oops');
    expect(screen.queryByTestId('error-status')).toBeNull();
  });
});

describe('prettyBody', () => {
  it('indents JSON and leaves the rest alone', () => {
    expect(prettyBody('{"a":1}')).toEqual({ text: '{\n  "a": 1\n}', json: true });
    expect(prettyBody('<html>502</html>')).toEqual({ text: '<html>502</html>', json: false });
    expect(prettyBody('{"truncated": ')).toEqual({ text: '{"truncated": ', json: false });
  });
});

describe('ErrorView: where to go and when to come back', () => {
  it('shows a redirect’s Location and a rate limit’s Retry-After', () => {
    render(
      <ErrorView
        error={{
          kind: 'http',
          code: 'status',
          status: 429,
          message: 'HTTP 429: Rate limit reached (the server asks to retry after 30 s)',
          retryAfter: '30',
          location: 'https://api.example.com/v2/chat/completions',
        }}
        partial={{ events: 0, contentEvents: 0, outputTokens: 0, textChars: 0 }}
      />,
    );
    expect(screen.getByTestId('error-retry-after').textContent).toBe('30 s');
    expect(screen.getByTestId('error-location').textContent).toBe(
      'https://api.example.com/v2/chat/completions',
    );
  });
});
