/**
 * Requests with images (workload `images`): what they weighed and how long their upload took,
 * beside their TTFT — a large body moves TTFT before the server computes anything. Per request,
 * from its line: `requestBytes` (the body), write = phases.requestWrittenMs (from the send until
 * the whole body was handed to the socket: for a body larger than the socket's buffers, most of
 * its time on the wire), upload = firstByteMs − requestWrittenMs (body written → first response
 * byte: the rest of the transfer, the server reading and decoding the images, its queue and
 * prefill). Times of successful requests only; bytes of every measured one.
 */
import { summarize } from '../../stats/summary.ts';
import type { RunRequestLine } from '../file/line-schema.ts';
import type { RunSummary } from './schema.ts';
import { toMetricStats } from './summary.ts';

export type UploadSummary = NonNullable<RunSummary['upload']>;

export class UploadAccumulator {
  private requests = 0;
  private images = 0;
  private readonly bytes: number[] = [];
  private readonly write: number[] = [];
  private readonly upload: number[] = [];
  private readonly ttft: number[] = [];

  /** A measured, not cancelled line. */
  add(line: RunRequestLine): void {
    if (line.requestBytes === undefined) return;
    this.requests++;
    this.images += line.images ?? 0;
    this.bytes.push(line.requestBytes);
    if (line.status !== 'ok') return;
    const { requestWrittenMs: w, firstByteMs: fb } = line.phases;
    if (w !== null) this.write.push(w);
    if (w !== null && fb !== null) this.upload.push(Math.max(0, fb - w));
    if (line.ttftMs !== null) this.ttft.push(line.ttftMs);
  }

  summary(): UploadSummary | null {
    if (this.requests === 0) return null;
    return {
      requests: this.requests,
      images: this.images,
      requestBytes: toMetricStats(summarize(this.bytes)),
      writeMs: toMetricStats(summarize(this.write)),
      uploadMs: toMetricStats(summarize(this.upload)),
      ttftMs: toMetricStats(summarize(this.ttft)),
    };
  }
}

const kib = (b: number): string =>
  b >= 1048576 ? `${(b / 1048576).toFixed(2)} MiB` : `${(b / 1024).toFixed(1)} KiB`;
const ms = (v: number | null | undefined): string =>
  v === null || v === undefined ? '–' : `${v.toFixed(2)} ms`;

/** The summary's rows in words: [label, value] (the text summary, the run view, the report). */
export function uploadRows(u: UploadSummary): [string, string][] {
  const b = u.requestBytes;
  return [
    ['Requests with images:', `${u.requests} (${u.images} images)`],
    ['Request bytes:', b ? `mean ${kib(b.mean)}, max ${kib(b.max ?? b.mean)}` : '–'],
    ['Write (sent → body written):', `p50 ${ms(u.writeMs?.median)}, p99 ${ms(u.writeMs?.p99)}`],
    ['Upload (written → first byte):', `p50 ${ms(u.uploadMs?.median)}, p99 ${ms(u.uploadMs?.p99)}`],
    ['TTFT of these requests:', `p50 ${ms(u.ttftMs?.median)}, p99 ${ms(u.ttftMs?.p99)}`],
  ];
}

/** `--json`'s `upload` object (snake_case, as the rest of it). */
export function uploadJson(u: UploadSummary): Record<string, number | null> {
  return {
    requests: u.requests,
    images: u.images,
    mean_request_bytes: u.requestBytes?.mean ?? null,
    max_request_bytes: u.requestBytes?.max ?? null,
    median_write_ms: u.writeMs?.median ?? null,
    p99_write_ms: u.writeMs?.p99 ?? null,
    median_upload_ms: u.uploadMs?.median ?? null,
    p99_upload_ms: u.uploadMs?.p99 ?? null,
    median_ttft_ms: u.ttftMs?.median ?? null,
    p99_ttft_ms: u.ttftMs?.p99 ?? null,
  };
}
