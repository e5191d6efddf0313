/**
 * A workload file's text → its object, unvalidated: JSON, or YAML (by extension, or when the
 * text is not JSON). Shared so the CLI and the app's "Load workload" read the same files.
 * Errors are values with a message that names the line, never exceptions.
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { fail, ok, type Result, errorMessage } from '../../result.ts';
import type { WorkloadIssue } from './workload.ts';

/** The file's object, or what is wrong with its text. */
export type WorkloadText = Result<Record<string, unknown>, WorkloadIssue[]>;

function isYamlName(name: string): boolean {
  return /\.ya?ml$/i.test(name);
}

export function parseWorkloadText(text: string, name: string): WorkloadText {
  let raw: unknown;
  if (isYamlName(name)) {
    try {
      // Plain data only: no custom tags, merge keys or aliases past a small budget.
      raw = parseYaml(text, { schema: 'core', merge: false, maxAliasCount: 100, uniqueKeys: true });
    } catch (e) {
      const where = e instanceof YAMLParseError && e.linePos ? ` (line ${e.linePos[0].line})` : '';
      return fail([
        { path: '', message: `${name} is not valid YAML${where}: ${errorMessage(e).split('\n')[0]}` },
      ]);
    }
  } else {
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return fail([{ path: '', message: `${name} is not valid JSON: ${errorMessage(e)}` }]);
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return fail([{ path: '', message: 'a workload is an object (JSON or YAML mapping)' }]);
  return ok(raw as Record<string, unknown>);
}
