/** One self-contained HTML report of runs (`tokenscope report RUN… -o report.html`). */
import { Option, type Command } from 'commander';
import { DEFINITION_IDS } from '../../../shared/runs/summary/definitions.ts';
import { int, num } from '../args.ts';
import type { ReportCliOptions } from '../report.ts';

export function addReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      'One self-contained HTML file (no network) with each run’s numbers, charts and swimlane; several runs: their comparison too.',
    )
    .argument(
      '<files...>',
      'run files (.jsonl) and/or vLLM / SGLang result files; 2 to 4 are compared (repeats pooled as A.r1.jsonl+A.r2.jsonl)',
    )
    .option('-o, --output <file>', 'where to write the report', 'report.html')
    .option(
      '--replicates <n>',
      'bootstrap replicates for the comparison’s 95 % intervals (default 1000; 0 = no intervals)',
      int('--replicates'),
    )
    .option(
      '--same-within <pct>',
      'the comparison’s equivalence margin: "same" when a change’s whole 95 % interval lies within ±this percentage (default 1)',
      num('--same-within'),
    )
    .addOption(
      new Option(
        '--definitions <preset>',
        'whose per-request rules to compare under (as `compare`): Tokenscope runs are re-derived from their events',
      ).choices([...DEFINITION_IDS]),
    )
    .action(async (files: string[], o: ReportCliOptions) => {
      const { runReport } = await import('../report.ts');
      process.exitCode = await runReport(files, o);
    });
}
