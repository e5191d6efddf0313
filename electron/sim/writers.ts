/** One writer per dialect (see each writer-*.ts for the wire format it reproduces). */
import type { DialectId } from '../../shared/dialects.ts';
import { AnthropicWriter } from './writer-anthropic.ts';
import { LlamacppWriter } from './writer-llamacpp.ts';
import { OllamaWriter } from './writer-ollama.ts';
import { ResponsesWriter } from './writer-responses.ts';
import { TgiWriter } from './writer-tgi.ts';
import type { DialectWriter, WriterContext } from './writer-types.ts';
import { VllmChatWriter } from './writer-vllm-chat.ts';
import { VllmCompletionsWriter } from './writer-vllm-completions.ts';
import { AnthropicToolWriter, ResponsesToolWriter, VllmToolWriter } from './writer-tools.ts';

export function createWriter(dialect: DialectId, ctx: WriterContext): DialectWriter {
  const call = ctx.toolCall;
  if (call && dialect === 'openai-chat') return new VllmToolWriter(ctx, call);
  if (call && dialect === 'anthropic-messages') return new AnthropicToolWriter(ctx, call);
  if (call && dialect === 'openai-responses') return new ResponsesToolWriter(ctx, call);
  switch (dialect) {
    case 'openai-chat':
      return new VllmChatWriter(ctx);
    case 'openai-completions':
      return new VllmCompletionsWriter(ctx);
    case 'openai-responses':
      return new ResponsesWriter(ctx);
    case 'anthropic-messages':
      return new AnthropicWriter(ctx);
    case 'tgi':
      return new TgiWriter(ctx);
    case 'llamacpp':
      return new LlamacppWriter(ctx);
    case 'ollama-generate':
    case 'ollama-chat':
      return new OllamaWriter(ctx);
    case 'openai-embeddings':
    case 'rerank':
      // Not streamed: sim/pooling.ts answers them whole.
      throw new Error(`${dialect} has no stream writer`);
  }
}
