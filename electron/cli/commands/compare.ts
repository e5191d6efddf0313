/** Runs side by side (`tokenscope compare A B [C D]`). */
import { Option, type Command } from 'commander';
import { DEFINITION_IDS } from '../../../shared/runs/summary/definitions.ts';
import { int, num } from '../args.ts';
import type { CompareCliOptions } from '../compare.ts';
export function addCompareCommand(program: Command): void {
  program
    .command('compare')
    .description(
      'Runs side by side: Tokenscope run files and/or vLLM / SGLang result files, each against the first.',
    )
    .argument(
      '<files...>',
      '2 to 4 runs: run files (.jsonl), vLLM --save-result / SGLang result files (every result of an --append-result file, or FILE#N for the Nth), repeats pooled as A.r1.jsonl+A.r2.jsonl',
    )
    .option(
      '--json',
      'one JSON object: runs, rows (values, change, 95 % interval, verdict), failure rates, workload differences',
    )
    .option('--markdown', 'a Markdown table to paste into an issue or a doc')
    .option('--csv', 'CSV for a spreadsheet: numbers with their unit column, change, interval, verdicts')
    .option(
      '--same-within <pct>',
      'equivalence margin: "same" when the whole 95 % interval of a change lies within ±this percentage (default 1)',
      num('--same-within'),
    )
    .option(
      '--max-regression <pct>',
      'exit 1 when a metric with an interval is worse than the first run by more than this percentage with 95 % confidence for all rows together (a CI gate)',
      num('--max-regression'),
    )
    .option(
      '--max-failure-increase <pp>',
      'gate: exit 1 when the failure rate rose by more than this many percentage points with 95 % confidence (default 0 with --max-regression: any clear increase)',
      num('--max-failure-increase'),
    )
    .option(
      '--replicates <n>',
      'bootstrap replicates for the 95 % intervals (default 1000; 0 = no intervals, verdicts from the values alone)',
      int('--replicates'),
    )
    .addOption(
      new Option(
        '--definitions <preset>',
        "whose per-request rules to compare under: Tokenscope runs are re-derived from their events (default: an imported result's, e.g. vllm, else tokenscope)",
      ).choices([...DEFINITION_IDS]),
    )
    .action(async (files: string[], o: CompareCliOptions) => {
      const { runCompare } = await import('../compare.ts');
      process.exitCode = await runCompare(files, o);
    });
}
