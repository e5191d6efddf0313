/** Shards' run files as one run (`tokenscope merge SHARD… -o RUN`). */
import type { Command } from 'commander';
import { DEFAULT_CLOCK_BOUND_MS } from '../../../shared/runs/shard/shard.ts';
import { num } from '../args.ts';
import type { MergeCliOptions } from '../merge.ts';
export function addMergeCommand(program: Command): void {
  program
    .command('merge')
    .description(
      "The run files of one workload's shards (run --shard I/N on several machines) as one run file: checked (same workload, N, start; every shard once), aligned on --start-at, the summary computed from the merged requests.",
    )
    .argument('<shards...>', "the shards' run files, any order")
    .requiredOption('-o, --out <file>', 'the merged run file to write (must not exist)')
    .option(
      '--clock-bound <ms>',
      `flag a shard whose clock offset or its uncertainty exceeds this (default ${DEFAULT_CLOCK_BOUND_MS} ms)`,
      num('--clock-bound'),
    )
    .option('--strict', 'exit 1 when a shard is flagged (self-check, clock, partial, cancelled)')
    .option('--json', "print the summary as one JSON object, with the merge's shards and flags")
    .option('-q, --quiet', 'print nothing but warnings and errors')
    .action(async (files: string[], o: MergeCliOptions) => {
      const { runMerge } = await import('../merge.ts');
      process.exitCode = await runMerge(files, o);
    });
}
