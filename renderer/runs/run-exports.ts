/**
 * Exports saved as files: a run in a format (vLLM JSON, CSV, raw), a report of runs (one
 * self-contained HTML page made by the core, shared/report/), or text made here. In web mode the
 * core's files come over HTTP (an export can be far larger than a socket message).
 */
import type { Result } from '../../shared/api.ts';
import type { ExportFormat, RunExport } from '../../shared/runs-api.ts';
import type { DefinitionsId } from '../../shared/runs/summary/definitions.ts';
import { api, getWebApi } from '../core/api.ts';
import { saveBlob, type WebApi } from '../core/transport/web-api.ts';
import { setRunsMessage } from './run-store.ts';

/** Save text as a file the browser downloads (web mode and Electron alike). */
export function download(e: RunExport): void {
  saveBlob(new Blob([e.content], { type: e.mime }), e.filename);
}

/** In web mode the file comes over HTTP (an export can be far larger than a socket message). */
export function exportRun(key: string, format: ExportFormat): Promise<boolean> {
  return saveExport(
    (web) => web.exportFile(key, format),
    () => api.exportRun(key, format),
  );
}

/**
 * One self-contained HTML report of runs (the run view: one; the comparison: its runs, under the
 * definitions it shows), made by the core (shared/report/), saved as a file.
 */
export function exportReport(keys: readonly string[], definitions?: DefinitionsId): Promise<boolean> {
  return saveExport(
    (web) => web.exportReport(keys, definitions),
    () => api.exportReport([...keys], definitions),
  );
}

/** An export saved as a file: over HTTP in web mode, over the bridge in Electron. */
async function saveExport(
  viaWeb: (web: WebApi) => Promise<Result<{ filename: string; blob: Blob }>>,
  viaApi: () => Promise<Result<RunExport>>,
): Promise<boolean> {
  const web = getWebApi();
  let filename: string;
  if (web) {
    const r = await viaWeb(web);
    if (!r.ok) {
      setRunsMessage({ tone: 'error', text: `Export failed: ${r.error.message}` });
      return false;
    }
    saveBlob(r.value.blob, r.value.filename);
    filename = r.value.filename;
  } else {
    const r = await viaApi();
    if (!r.ok) {
      setRunsMessage({ tone: 'error', text: `Export failed: ${r.error.message}` });
      return false;
    }
    download(r.value);
    filename = r.value.filename;
  }
  setRunsMessage({ tone: 'info', text: `Exported ${filename}` });
  return true;
}
