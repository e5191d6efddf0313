/**
 * The vllm-client bench's configurations (bench/vllm-client.bench.ts): the simulator's flags and the
 * workload's lengths, and the prompts both clients send, written out for the Python driver.
 */
import fs from 'node:fs';
import { loadPrompts } from '../../electron/runs/prompts/prompts.ts';
import { parseWorkload } from '../../shared/runs/workload/workload.ts';
import { ROOT } from './processes.ts';

export interface Config {
  name: string;
  sim: string[];
  inputLen: string;
  outputLen: string;
}
export const CONFIGS: Record<string, Config> = {
  jitter: { name: 'jitter', sim: ['--jitter', '0.15'], inputLen: '100-1000', outputLen: '32-256' },
  steady: { name: 'steady', sim: ['--jitter', '0'], inputLen: '256', outputLen: '128' },
};

/** The workload's synthetic prompts (seed 0), as the driver reads them. */
export async function promptsFile(cfg: Config, n: number, file: string): Promise<void> {
  const len = (s: string) => {
    const [a, b] = s.split('-').map(Number);
    return b === undefined ? a! : { type: 'uniform' as const, min: a!, max: b };
  };
  const w = parseWorkload({
    requests: n,
    prompts: { type: 'synthetic', inputLen: len(cfg.inputLen), outputLen: len(cfg.outputLen) },
  });
  if (!w.ok) throw new Error(JSON.stringify(w.error));
  const p = await loadPrompts(w.value.prompts, w.value.seed, ROOT);
  const items = Array.from({ length: n }, (_, i) => {
    const it = p.at(i);
    return { prompt: it.prompt, prompt_len: it.inputTokens, output_len: it.outputTokens };
  });
  fs.writeFileSync(file, JSON.stringify(items));
}
