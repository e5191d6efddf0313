// @vitest-environment happy-dom
/** The run view's images-and-upload card: bytes, write, upload and TTFT from the summary; nothing without images. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UploadAccumulator } from '../../../shared/runs/summary/upload.ts';
import type { RunRequestLine } from '../../../shared/runs/file/line-schema.ts';
import { runDetail } from '../../testing/run-fixture.ts';
import { UploadTable } from './UploadTable.tsx';

afterEach(cleanup);

const s = runDetail(5).summary;

function line(bytes: number, written: number, firstByte: number, ttft: number): RunRequestLine {
  return {
    status: 'ok',
    requestBytes: bytes,
    images: 2,
    ttftMs: ttft,
    phases: {
      connectedMs: 0,
      requestWrittenMs: written,
      headersMs: firstByte,
      firstByteMs: firstByte,
      endMs: ttft + 10,
    },
  } as RunRequestLine;
}

describe('UploadTable', () => {
  it('shows nothing for a run without images', () => {
    const { container } = render(<UploadTable s={s} />);
    expect(container.textContent).toBe('');
  });

  it('shows the bytes and write / upload / TTFT percentiles of the requests with images', () => {
    const acc = new UploadAccumulator();
    acc.add(line(2 * 1048576, 10, 110, 130));
    acc.add(line(1048576, 20, 60, 70));
    acc.add({ ...line(1048576, 5, 6, 7), status: 'error' });
    const upload = acc.summary()!;
    expect(upload.requests).toBe(3);
    expect(upload.images).toBe(6);
    expect(upload.uploadMs!.max).toBe(100); // 110 − 10; the failed request's times left out
    expect(upload.uploadMs!.count).toBe(2);
    render(<UploadTable s={{ ...s, upload }} />);
    expect(screen.getByTestId('sum-upload-head').textContent).toMatch(
      /3 requests with 6 images · request bytes mean 1\.33 MiB, max 2\.00 MiB/,
    );
    const rows = [...screen.getByTestId('sum-upload').querySelectorAll('tbody tr')].map((r) => r.textContent);
    expect(rows[1]).toMatch(/^upload/);
    expect(rows[1]).toContain('100.00');
    expect(rows[2]).toContain('130.00');
  });
});
