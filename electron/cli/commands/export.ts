/** A run's requests as OTLP client spans (`tokenscope export --otlp URL RUN`): docs/tracing.md. */
import type { Command } from 'commander';
import type { ExportOtlpCliOptions } from '../export-otlp.ts';

export function addExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      "Send a run's requests as OpenTelemetry spans to an OTLP/HTTP traces endpoint: one span per request in the trace it sent (so the server's span of it lands in the same trace), one event per chunk, at the recorded times.",
    )
    .argument('<run>', 'a run file (.jsonl)')
    .requiredOption('--otlp <url>', 'the OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces')
    .option('-q, --quiet', 'print nothing but errors')
    .action(async (file: string, o: ExportOtlpCliOptions) => {
      const { runExportOtlp } = await import('../export-otlp.ts');
      process.exitCode = await runExportOtlp(file, o);
    });
}
