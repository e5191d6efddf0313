/** Embeddings and rerank batches (workload `pooling`; docs/load.md "Embeddings and rerank"). */
import type { Command } from 'commander';
import { int } from '../args.ts';

export function addPoolingOptions(cmd: Command): Command {
  return cmd
    .option(
      '--batch-size <n>',
      'openai-embeddings: inputs per request (each a prompt of the workload, --input-len long; default 1)',
      int('--batch-size'),
    )
    .option('--documents <n>', 'rerank: documents per query (default 8)', int('--documents'))
    .option('--document-len <n>', 'rerank: tokens of each document (default 128)', int('--document-len'))
    .option('--top-n <n>', 'rerank: ask for the best N documents only (default: all scored)', int('--top-n'));
}
