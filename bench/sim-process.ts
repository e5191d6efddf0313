/**
 * The simulator in a process of its own for the benches that run the built CLI (memory, prompts):
 * `tokenscope sim` pinned to CPU 1 (taskset, when there are two CPUs), its URL read from its banner.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** `args` run on `cpu` with taskset when the machine has two CPUs and taskset exists. */
export function pin(cpu: string, args: string[]): string[] {
  return os.cpus().length >= 2 && fs.existsSync('/usr/bin/taskset') ? ['taskset', '-c', cpu, ...args] : args;
}

/** A fast simulator (256 sequences, 5-ms steps, no prefill time) from the built CLI `bundle`. */
export async function startSimProcess(bundle: string): Promise<{ url: string; stop: () => void }> {
  const argv = pin('1', [process.execPath, bundle, 'sim', '--port', '0', '--max-num-seqs', '256']);
  const child = spawn(argv[0]!, [
    ...argv.slice(1),
    ...['--decode-step-ms', '5', '--decode-step-per-seq-ms', '0', '--prefill-ms-per-token', '0'],
  ]);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited ${code}`)));
  });
  return { url, stop: () => child.kill('SIGKILL') };
}
