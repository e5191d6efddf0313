/**
 * A report file (one self-contained HTML page, shared/report/) from runs the core has read: the
 * template built by vite.report.config.ts, found beside the running bundle (out/main, out/cli, or
 * inside the desktop app) or in the clone's out/ when run from source, filled with the data.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { fail, ok, type Result } from '../../shared/result.ts';
import { fillReportTemplate } from '../../shared/report/report-html.ts';
import { buildReportData, type ReportInput } from '../../shared/report/report-data.ts';
import { TOKENSCOPE_VERSION } from '../platform/build-info.ts';

/** Where the template may be, nearest first: beside a bundle (out/<x>/ → out/report/), then the clone's. */
const CANDIDATES = ['../report/template.html', '../../out/report/template.html'];

export function reportTemplatePath(): string | null {
  for (const rel of CANDIDATES) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  return null;
}

/** The report page with these runs in it, or what went wrong (no template, runs not comparable). */
export async function makeReport(
  input: Omit<ReportInput, 'tokenscopeVersion' | 'generatedAtWall'> & { generatedAtWall?: number },
): Promise<Result<string>> {
  const file = reportTemplatePath();
  if (!file)
    return fail({
      kind: 'io',
      code: 'no-template',
      message: 'the report page is missing from this build (out/report/template.html): run `npm run build`',
    });
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
