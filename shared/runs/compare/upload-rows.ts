/**
 * A comparison's image-upload rows, from each run's `upload` (requests that carried images:
 * shared/runs/summary/upload.ts). A run without images has no value (absent, never 0); with none on
 * any side the rows are left out. Conditions and subsets of the run: no verdicts (the TTFT rows
 * above carry those, with intervals).
 */
import type { CompareRowDef } from './rows.ts';

const num = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

export const UPLOAD_ROWS: readonly CompareRowDef[] = [
  {
    id: 'upload-bytes',
    label: 'Request bytes (mean, requests with images)',
    unit: 'count',
    better: null,
    group: 'Images and upload',
    get: (s) => num(s.upload?.requestBytes?.mean),
  },
  {
    id: 'upload-write-p50',
    label: 'Write p50 (sent → body written)',
    unit: 'ms',
    better: null,
    get: (s) => num(s.upload?.writeMs?.median),
  },
  {
    id: 'upload-p50',
    label: 'Upload p50 (written → first byte)',
    unit: 'ms',
    better: null,
    get: (s) => num(s.upload?.uploadMs?.median),
  },
  {
    id: 'upload-p99',
    label: 'Upload p99 (written → first byte)',
    unit: 'ms',
    better: null,
    get: (s) => num(s.upload?.uploadMs?.p99),
  },
];
