/**
 * The report page's entry (renderer/report/report.html, built into one self-contained file by
 * vite.report.config.ts): reads the data the core put into the page and renders the report with
 * the app's styles, or says why it cannot.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ReportApp } from './ReportApp.tsx';
import { readReportData } from './report-view.ts';
// The app's styles, in its cascade order (renderer/main.tsx), then the report's own.
import '../core/base.css';
import '../request/request.css';
import '../shell/modal-and-tabs.css';
import '../metrics/metrics.css';
import '../runs/runs.css';
import '../metrics/side-by-side.css';
import '../core/late.css';
import './report.css';

const root = document.getElementById('root');
if (!root) throw new Error('report.html has no #root');
const data = readReportData(document);
if (data.ok) {
  const r = data.value.runs;
  document.title = `${r.length > 1 ? `${r.length} runs` : (r[0]?.entry.name ?? 'Load run')} · Tokenscope report`;
}
createRoot(root).render(
  <StrictMode>
    {data.ok ? (
      <ReportApp data={data.value} />
    ) : (
      <p className="banner bad" role="alert" data-testid="report-error">
        Cannot show this report: {data.error.message}.
      </p>
    )}
  </StrictMode>,
);
