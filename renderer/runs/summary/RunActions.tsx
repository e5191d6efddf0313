/**
 * A run's actions in its summary's head: rename, export (in a format its source allows), show its
 * file, delete (after asking). The calls themselves are in runs/run-actions.ts.
 */
import { useState } from 'react';
import type { ExportFormat, RunDetail, RunEntry } from '../../../shared/runs-api.ts';
import { deleteRun, renameRun, revealRun } from '../run-actions.ts';
import { exportReport, exportRun } from '../run-exports.ts';
import { OtlpExportControl } from './OtlpExportControl.tsx';

const EXPORTS: { id: ExportFormat; label: string; native: boolean }[] = [
  { id: 'vllm', label: 'vLLM result JSON', native: true },
  { id: 'vllm-detailed', label: 'vLLM JSON + per-request arrays', native: true },
  { id: 'csv', label: 'CSV (one row per request)', native: true },
  { id: 'raw', label: 'raw run file', native: false },
];

export function RunActions({ d }: { d: RunDetail }) {
  const e = d.entry;
  const [format, setFormat] = useState<ExportFormat>(e.imported ? 'raw' : 'vllm');
  const formats = EXPORTS.filter((x) => !e.imported || !x.native);
  return (
    <div className="row gap wrap run-actions">
      <RenameControl e={e} />
      <select
        aria-label="Export format"
        data-testid="run-export-format"
        value={format}
        onChange={(ev) => setFormat(ev.target.value as ExportFormat)}
        className="export-select"
      >
        {formats.map((f) => (
          <option key={f.id} value={f.id}>
            {f.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn small"
        data-testid="run-export"
        onClick={() => void exportRun(e.key, format)}
      >
        Export
      </button>
      <button
        type="button"
        className="btn small"
        data-testid="run-report"
        onClick={() => void exportReport([e.key])}
        title="One self-contained HTML file (numbers, charts, swimlane) that opens in any browser, offline"
      >
        Export report
      </button>
      <OtlpExportControl e={e} />
      <button
        type="button"
        className="btn small"
        data-testid="run-reveal"
        onClick={() => void revealRun(e.key)}
        title="Show the run file in the file manager (web mode: its path)"
      >
        Show file
      </button>
      <DeleteControl e={e} />
    </div>
  );
}

/** "Rename", then a name field with Save and Cancel. */
function RenameControl({ e }: { e: RunEntry }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  if (renaming === null)
    return (
      <button
        type="button"
        className="btn small"
        data-testid="run-rename"
        onClick={() => setRenaming(e.name || 'Load run')}
      >
        Rename
      </button>
    );
  return (
    <form
      className="row gap"
      onSubmit={(ev) => {
        ev.preventDefault();
        if (renaming.trim()) void renameRun(e.key, renaming.trim()).then((ok) => ok && setRenaming(null));
      }}
    >
      <input
        aria-label="New name"
        data-testid="run-rename-input"
        value={renaming}
        autoFocus
        maxLength={200}
        onChange={(ev) => setRenaming(ev.target.value)}
      />
      <button type="submit" className="btn small primary" disabled={!renaming.trim()}>
        Save
      </button>
      <button type="button" className="btn small ghost" onClick={() => setRenaming(null)}>
        Cancel
      </button>
    </form>
  );
}

/** "Delete…", then asks before deleting for good (not while the run goes on). */
function DeleteControl({ e }: { e: RunEntry }) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  if (confirmDelete)
    return (
      <span className="row gap">
        <span className="danger-text">Delete this run for good?</span>
        <button
          type="button"
          className="btn small danger"
          data-testid="run-delete-confirm"
          onClick={() => void deleteRun(e.key)}
        >
          Delete
        </button>
        <button type="button" className="btn small ghost" onClick={() => setConfirmDelete(false)}>
          Keep
        </button>
      </span>
    );
  return (
    <button
      type="button"
      className="btn small ghost"
      data-testid="run-delete"
      disabled={e.running}
      onClick={() => setConfirmDelete(true)}
    >
      Delete…
    </button>
  );
}
