/** Web mode (`tokenscope serve`). */
import type { Command } from 'commander';
import { collect, int } from '../args.ts';
import type { ServeCliOptions } from '../serve.ts';
export function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Web mode: serve the app UI to a browser, bound to loopback, guarded by a random token.')
    .option('--port <n>', 'port (0 = any free port)', int('--port'), 5173)
    .option(
      '--host <host>',
      'address to bind (keep loopback; use an SSH tunnel for remote boxes)',
      '127.0.0.1',
    )
    .option(
      '--allow-host <name>',
      'a host name the page may be opened by besides localhost and IP addresses (repeatable; a guard against DNS rebinding)',
      collect,
    )
    .option('--no-sim', 'do not start the built-in simulator')
    .option('--sim-port <n>', 'port of the built-in simulator (default: any free port)', int('--sim-port'))
    .option('--rebuild', 'rebuild the UI before serving')
    .action(async (o: ServeCliOptions) => {
      const { runServe } = await import('../serve.ts');
      process.exitCode = await runServe(o);
    });
}
