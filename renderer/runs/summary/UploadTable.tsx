/**
 * Requests with images (shared/runs/summary/upload.ts): their body's bytes, the time to write it
 * and from written to the first response byte, beside their TTFT — a large upload moves TTFT
 * before the server computes anything. Nothing for runs without images.
 */
import type { RunSummary } from '../../../shared/runs/summary/schema.ts';
import { int } from './summary-format.ts';
import { StatsRow } from './StatsRow.tsx';

const kib = (b: number | null | undefined): string =>
  b === null || b === undefined
    ? '–'
    : b >= 1048576
      ? `${(b / 1048576).toFixed(2)} MiB`
      : `${(b / 1024).toFixed(1)} KiB`;

export function UploadTable({ s }: { s: RunSummary }) {
  const u = s.upload;
  if (!u) return null;
  return (
    <section className="card" aria-label="Images and upload">
      <header className="card-head">
        <h3 title="Requests that carried images (workload images): request bytes, write and upload times, TTFT">
          Images and upload
        </h3>
        <span className="muted" data-testid="sum-upload-head">
          {int(u.requests)} requests with {int(u.images)} images · request bytes mean{' '}
          {kib(u.requestBytes?.mean)}, max {kib(u.requestBytes?.max)}
        </span>
      </header>
      <div className="table-scroll">
        <table className="run-table num" data-testid="sum-upload">
          <thead>
            <tr>
              <th>ms</th>
              <th>p50</th>
              <th>p90</th>
              <th>p99</th>
              <th>max</th>
            </tr>
          </thead>
          <tbody>
            <StatsRow
              count={false}
              name="write"
              title="From the send until the whole body was handed to the socket"
              v={u.writeMs}
            />
            <StatsRow
              count={false}
              name="upload"
              title="From the body written to the first response byte: the rest of the transfer, image decoding, queue, prefill"
              v={u.uploadMs}
            />
            <StatsRow
              count={false}
              name="TTFT"
              title="Time to first token of the same requests"
              v={u.ttftMs}
            />
          </tbody>
        </table>
      </div>
    </section>
  );
}
