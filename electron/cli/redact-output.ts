/**
 * The CLI's print boundary: everything it prints (text, `--json`, errors) goes through one filter
 * that
 * - replaces the secrets the user gave (API keys, secret-looking header values, URL credentials and
 *   secret query values, TOKENSCOPE_API_KEY) and redacts every URL's credentials and secret query
 *   parameters: whatever a command or a server's error says, the terminal and its logs never get
 *   them in clear;
 * - neutralises control characters (shared/terminal-text.ts): text from a server or a file cannot
 *   retitle, clear or rewrite the terminal. The CLI's own cursor control (the redrawn progress
 *   line) goes past it through writeControl, and only that.
 */
import { looksSecretName, redactText, urlSecrets } from '../../shared/redact.ts';
import { neutralizeControls } from '../../shared/terminal-text.ts';

/** The secrets in a command line (and the environment). */
export function secretsOf(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  if (env.TOKENSCOPE_API_KEY) out.push(env.TOKENSCOPE_API_KEY);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    const inline = /^--api-key=(.+)$/.exec(a);
    if (inline) out.push(inline[1]!);
    else if (a === '--api-key' && next !== undefined) out.push(next);
    const header = a === '-H' || a === '--header' ? next : /^--header=(.+)$/.exec(a)?.[1];
    if (header !== undefined) {
      const colon = header.indexOf(':');
      const name = colon > 0 ? header.slice(0, colon).trim() : '';
      const value = colon > 0 ? header.slice(colon + 1).trim() : '';
      if (name && value && looksSecretName(name)) {
        out.push(value);
        const m = /^(?:Bearer|Basic|Token)\s+(\S+)$/i.exec(value);
        if (m) out.push(m[1]!);
      }
    }
    if (a.includes('://')) out.push(...urlSecrets(a.replace(/^--[a-z-]+=/, '')));
  }
  return out.filter((s) => s.length > 0);
}

type Write = typeof process.stdout.write;

/** process.stdout's own write, before the filter (set by installOutputRedaction). */
let rawStdout: Write | null = null;

/**
 * Writes to stdout past the filter. Only for what must reach the user as it is: web mode's own
 * address with its access token (a fresh random token per start, meant to be opened, as Jupyter
 * prints its own) — the filter would otherwise turn `?token=…` into `?token=***`.
 */
export function writeUnredacted(text: string): void {
  if (rawStdout) rawStdout(text);
  else process.stdout.write(text);
}

/** process.stderr's own write, before the filter. */
let rawStderr: Write | null = null;

/** The CLI's own terminal control sequence (e.g. `\r\x1b[2K`, erase the line), past the filter. */
export function writeControl(sequence: string): void {
  if (rawStderr) rawStderr(sequence);
  else process.stderr.write(sequence);
}

/** What the filter makes of one printed text: secrets redacted, control characters made visible. */
function filterOutput(text: string, secrets: readonly string[]): string {
  return neutralizeControls(redactText(text, secrets));
}

/** Routes process.stdout/stderr through the filter; returns a function that restores them. */
export function installOutputRedaction(secrets: readonly string[]): () => void {
  const streams = [process.stdout, process.stderr] as const;
  const originals = streams.map((s) => s.write);
  rawStdout = originals[0]!.bind(process.stdout) as Write;
  rawStderr = originals[1]!.bind(process.stderr) as Write;
  streams.forEach((stream, k) => {
    const orig = originals[k]!.bind(stream) as Write;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      orig(
        (typeof chunk === 'string' ? filterOutput(chunk, secrets) : chunk) as string,
        ...(rest as [BufferEncoding]),
      )) as Write;
  });
  return () => {
    rawStdout = null;
    rawStderr = null;
    streams.forEach((stream, k) => {
      stream.write = originals[k]!;
    });
  };
}
