/** Send one request and watch it stream (`tokenscope probe URL [URL2]`). */
import { Option, type Command } from 'commander';
import { DIALECT_IDS } from '../../../shared/dialects.ts';
import { collect, dialect, int, num } from '../args.ts';
import type { ProbeCliOptions } from '../probe.ts';
import { normalizeServerUrl } from '../url-arg.ts';
export function addProbeCommand(program: Command): void {
  program
    .command('probe')
    .description(
      'Send one streaming request, print every event as it arrives, then a summary; with two URLs, the same request to both at once, then side by side.',
    )
    .argument(
      '<url>',
      'server base URL (the dialect picks the path) or a full endpoint URL; http:// is assumed when there is no scheme',
      (v: string) => normalizeServerUrl(v),
    )
    .argument(
      '[url2]',
      'a second server: the same request to both at the same moment, compared',
      (v: string) => normalizeServerUrl(v),
    )
    .option('-m, --model <name>', 'model name (default: the first model the server lists)')
    .option('-p, --prompt <text>', 'prompt text', 'Explain in a few sentences why the sky is blue.')
    .option('--messages <json>', 'chat messages as a JSON array of {role, content} (chat dialects)')
    .addOption(
      new Option('-d, --dialect <dialect>', `wire format: ${DIALECT_IDS.join(', ')}`)
        .default('openai-chat')
        .argParser(dialect),
    )
    .option('-n, --max-tokens <n>', 'max tokens to generate', int('--max-tokens'), 128)
    .option('-t, --temperature <x>', 'sampling temperature', num('--temperature'))
    .option('--ignore-eos', 'ask the server to ignore EOS (vLLM, llama.cpp)')
    .option('--min-tokens <n>', 'minimum tokens (vLLM)', int('--min-tokens'))
    .option('--extra-body <json>', 'JSON merged last into the request body')
    .option('-H, --header <k:v>', 'extra HTTP header (repeatable)', collect)
    .option(
      '--api-key <key>',
      'API key sent as a Bearer token, x-api-key for anthropic-messages (or set TOKENSCOPE_API_KEY)',
    )
    .option('--no-include-usage', 'do not inject stream_options.include_usage (OpenAI dialects)')
    .option(
      '--continuous-usage',
      'inject stream_options.continuous_usage_stats (vLLM: exact tokens per event)',
    )
    .option('--timeout <ms>', 'whole-request timeout in ms', int('--timeout'), 300_000)
    .option(
      '--idle-timeout <ms>',
      'fail when no byte arrives for this long (ms; default 60000, 0 = never)',
      int('--idle-timeout'),
    )
    .option('--insecure', 'skip TLS certificate verification')
    .option('--no-trace-headers', 'send no traceparent / x-request-id (default: a fresh W3C trace)')
    .option('--raw', 'print the raw data of each event')
    .option('-q, --quiet', 'no live event lines, summary only')
    .option('--json', 'print one JSON object (summary, times, text, error) and nothing else')
    .action(async (url: string, url2: string | undefined, o: ProbeCliOptions) => {
      const { runProbe } = await import('../probe.ts');
      process.exitCode = await runProbe(url, o, url2);
    });
}
