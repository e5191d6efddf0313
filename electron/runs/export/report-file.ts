/**
 * A report file (one self-contained HTML page, shared/report/) from runs the core has read: the
 * template built by vite.report.config.ts, found beside the running bundle (out/main, out/cli, or
 * inside the desktop app) or in the clone's out/ when run from source (built there on first use:
 * report-build.ts), filled with the data.
 */
import { readFile } from 'node:fs/promises';
import { fail, ok, type Result } from '../../../shared/result.ts';
import { fillReportTemplate } from '../../../shared/report/report-html.ts';
import { buildReportData, type ReportInput } from '../../../shared/report/report-data.ts';
import { TOKENSCOPE_VERSION } from '../../platform/build-info.ts';
import { ensureReportTemplate } from './report-build.ts';

/**
 * The report page with these runs in it, or what went wrong (no template and none can be built —
 * code `no-template`, a setup problem —, runs not comparable). `log`: a line when it builds the page.
 */
export async function makeReport(
  input: Omit<ReportInput, 'tokenscopeVersion' | 'generatedAtWall'> & { generatedAtWall?: number },
  log?: (line: string) => void,
): Promise<Result<string>> {
  const found = await ensureReportTemplate(log);
  if (!found.ok) return found;
  const file = found.value;
  const data = buildReportData({
    ...input,
    tokenscopeVersion: TOKENSCOPE_VERSION,
    generatedAtWall: input.generatedAtWall ?? Date.now(),
  });
  if (!data.ok) return data;
  const template = await readFile(file, 'utf8');
  const html = fillReportTemplate(template, data.value);
  if (html === null)
    return fail({ kind: 'io', code: 'bad-template', message: `${file} is not a report template` });
  return ok(html);
}
