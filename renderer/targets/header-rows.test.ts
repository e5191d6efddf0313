import { describe, expect, it } from 'vitest';
import { headersFromRows } from './header-rows.ts';

describe('headersFromRows', () => {
  it('skips blank rows and rejects nameless or repeated headers', () => {
    expect(
      headersFromRows([
        { key: '', value: '' },
        { key: 'X-A', value: '1' },
      ]),
    ).toEqual({ ok: true, value: { 'X-A': '1' } });
    expect(headersFromRows([{ key: '', value: 'v' }])).toMatchObject({ ok: false });
    expect(
      headersFromRows([
        { key: 'x-a', value: '1' },
        { key: 'X-A', value: '2' },
      ]),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/twice/) });
    expect(headersFromRows([{ key: 'bad name', value: '1' }])).toMatchObject({ ok: false });
    expect(headersFromRows([])).toEqual({ ok: true, value: undefined });
  });
});
