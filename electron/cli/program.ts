/**
 * `tokenscope` — the headless entry point: probe, sim, run, sweep, compare, report, merge, metrics, serve. Each command's
 * options live in cli/commands/, its work in cli/<command>.ts: a thin shell over the same core the app uses.
 */
import { Command, CommanderError } from 'commander';
import { TOKENSCOPE_VERSION } from '../platform/build-info.ts';
import { ioThreads } from './args.ts';
import { addCompareCommand } from './commands/compare.ts';
import { addMergeCommand } from './commands/merge.ts';
import { addExportCommand } from './commands/export.ts';
import { addMetricsCommand } from './commands/metrics.ts';
import { addProbeCommand } from './commands/probe.ts';
import { addReportCommand } from './commands/report.ts';
import { addRunCommand } from './commands/run.ts';
import { addServeCommand } from './commands/serve.ts';
import { addSimCommand } from './commands/sim.ts';
import { addSweepCommand } from './commands/sweep.ts';
import { installOutputRedaction, secretsOf } from './redact-output.ts';
import { MAX_IO_THREADS } from '../engine/io/io-limits.ts';
import { errorMessage } from '../../shared/result.ts';
import { limitHeapGrowth } from '../platform/heap-growth.ts';

export function buildProgram(): Command {
  const program = new Command('tokenscope')
    .description('See what your LLM inference servers really do: per-event stream timing, TTFT, ITL, E2E.')
    .version(TOKENSCOPE_VERSION, '-V, --version', 'print the version')
    // Usage errors exit 2 (the README's promise), not commander's 1; see main(). Set before any
    // .command() so every subcommand inherits it.
    .exitOverride()
    // After a usage error, one line on where the options are, not the whole help (~100 lines that
    // push the error and its "Did you mean …?" off the screen). Each command names its own below.
    .showHelpAfterError("(run 'tokenscope --help' for the commands)")
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .option(
      '--io-threads <n>',
      `stream-I/O threads that own the sockets and stamp every read (0–${MAX_IO_THREADS}; 0: in the main thread; default: cores − 1, at least 1)`,
      ioThreads,
    )
    .hook('preAction', async (cmd) => {
      const n = cmd.opts<{ ioThreads?: number }>().ioThreads;
      // The CLI's engine configuration (web mode's too): the environment's, --io-threads over it.
      // Loaded here, not at the top: `tokenscope --help` parses options and loads nothing else.
      const { engineConfigFromEnv } = await import('../engine/engine-config.ts');
      const config = engineConfigFromEnv(process.env);
      if (n !== undefined) config.ioThreads = n;
      (await import('../engine/io/io-engine.ts')).configureEngine(config);
    });

  addProbeCommand(program);
  addSimCommand(program);
  addRunCommand(program);
  addSweepCommand(program);
  addCompareCommand(program);
  addReportCommand(program);
  addMergeCommand(program);
  addExportCommand(program);
  addServeCommand(program);
  addMetricsCommand(program);
  for (const c of program.commands)
    c.showHelpAfterError(`(run 'tokenscope ${c.name()} --help' for its options)`);
  return program;
}

/**
 * Exit codes: 0 ok, 1 a request or run failed, 2 bad usage. Never a stack trace for user input:
 * an unexpected error prints one line (TOKENSCOPE_DEBUG=1 prints the trace).
 */
export async function main(argv: string[]): Promise<void> {
  // Nothing printed by any command carries a secret in clear (cli/redact-output.ts).
  installOutputRedaction(secretsOf(argv));
  // The old generation grows to 1.5 × live, not V8's 4 × on a slow-marking thread (heap-growth.ts).
  limitHeapGrowth();
  try {
    await buildProgram().parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander already printed the message (and the help); help and --version are not errors.
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`error: ${errorMessage(e)}\n`);
    if (process.env.TOKENSCOPE_DEBUG && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
    process.exitCode = 1;
  }
}
