/**
 * Test support: replays a corpus body through the dialect's framer and decoder, the way the
 * engine does (stream-decoder.ts), and sums up what a request record would hold.
 */
import type { DialectId } from '../../shared/dialects.ts';
import type { Usage } from '../../shared/request.ts';
import { NdjsonFramer, type NdjsonLine } from '../engine/framing/ndjson.ts';
import { SseParser, type SseEvent } from '../engine/framing/sse.ts';
import { readCorpus } from './framing-corpus.ts';
import { getDialect } from '../engine/dialects/index.ts';
import type { DecodedEvent, Frame } from '../engine/dialects/types.ts';

/** Which dialect reads which corpus body. Files with no dialect are listed in NO_DIALECT. */
export const CORPUS_DIALECT: Record<string, DialectId> = {
  'vllm-chat.sse': 'openai-chat',
  'vllm-chat-include-usage.sse': 'openai-chat',
  'vllm-chat-continuous-usage.sse': 'openai-chat',
  'vllm-error-midstream.sse': 'openai-chat',
  'vllm-legacy-v0.6-error-midstream.sse': 'openai-chat',
  'sglang-chat.sse': 'openai-chat',
  'sglang-chat-include-usage.sse': 'openai-chat',
  'sglang-error-midstream.sse': 'openai-chat',
  'tgi-chat.sse': 'openai-chat',
  'tgi-chat-include-usage.sse': 'openai-chat',
  'tgi-chat-keepalive.sse': 'openai-chat',
  'tgi-chat-error-midstream.sse': 'openai-chat',
  'llamacpp-chat.sse': 'openai-chat',
  'llamacpp-chat-include-usage.sse': 'openai-chat',
  'llamacpp-chat-timings-per-token.sse': 'openai-chat',
  'llamacpp-error-midstream.sse': 'openai-chat',
  'ollama-v1-chat.sse': 'openai-chat',
  'ollama-v1-chat-include-usage.sse': 'openai-chat',
  'openai-chat-completions.sse': 'openai-chat',
  'vllm-completions.sse': 'openai-completions',
  'vllm-completions-include-usage.sse': 'openai-completions',
  'llamacpp-v1-completions.sse': 'openai-completions',
  'ollama-v1-completions-include-usage.sse': 'openai-completions',
  'openai-responses.sse': 'openai-responses',
  'openai-responses-error.sse': 'openai-responses',
  'vllm-responses-excerpt.sse': 'openai-responses',
  'anthropic-messages.sse': 'anthropic-messages',
  'anthropic-messages-tool-use.sse': 'anthropic-messages',
  'anthropic-error-midstream.sse': 'anthropic-messages',
  'tgi-generate-stream.sse': 'tgi',
  'tgi-generate-stream-error.sse': 'tgi',
  'tgi-generate-stream-overloaded.sse': 'tgi',
  'llamacpp-completion.sse': 'llamacpp',
  'llamacpp-legacy-error-field.sse': 'llamacpp',
  'ollama-api-generate.ndjson': 'ollama-generate',
  'ollama-api-generate-error-midstream.ndjson': 'ollama-generate',
  'ollama-api-chat.ndjson': 'ollama-chat',
  'ollama-api-chat-thinking.ndjson': 'ollama-chat',
};

/** Bodies no Tokenscope dialect speaks (SGLang native /generate) or the SSE test vector. */
export const NO_DIALECT = new Set([
  'sglang-generate-native.sse',
  'sglang-generate-native-error.sse',
  'whatwg-edge-cases.sse',
]);

export interface Replay {
  frames: Frame[];
  events: DecodedEvent[];
  text: string;
  reasoning: string;
  toolCall: string;
  finishReason: string | null;
  usage: Usage | null;
  terminated: boolean;
  /** Index of the first terminal event, -1 if none. */
  terminalAt: number;
  errors: DecodedEvent[];
  invalid: DecodedEvent[];
  content: DecodedEvent[];
}

export function framesOf(id: DialectId, reads: readonly Uint8Array[]): Frame[] {
  const frames: Frame[] = [];
  if (getDialect(id).framing === 'sse') {
    const p = new SseParser();
    const out: SseEvent[] = [];
    for (const r of reads) p.push(r, out);
    p.end(out);
    for (const e of out) frames.push({ event: e.event, data: e.data });
  } else {
    const f = new NdjsonFramer();
    const out: NdjsonLine[] = [];
    for (const r of reads) f.push(r, out);
    const end = f.end(out);
    if (end.unterminatedLine) out.push({ data: end.unterminatedLine });
    for (const l of out) frames.push({ event: 'message', data: l.data });
  }
  return frames;
}

export function replayFrames(id: DialectId, frames: Frame[]): Replay {
  const decoder = getDialect(id).createDecoder();
  const r: Replay = {
    frames,
    events: [],
    text: '',
    reasoning: '',
    toolCall: '',
    finishReason: null,
    usage: null,
    terminated: false,
    terminalAt: -1,
    errors: [],
    invalid: [],
    content: [],
  };
  for (const f of frames) {
    const d = decoder.decode(f);
    r.events.push(d);
    r.text += d.text;
    r.reasoning += d.reasoning ?? '';
    r.toolCall += d.toolCall ?? '';
    if (d.finishReason) r.finishReason = d.finishReason;
    if (d.usage) r.usage = { ...(r.usage ?? {}), ...d.usage };
    if (d.terminal && !r.terminated) {
      r.terminated = true;
      r.terminalAt = r.events.length - 1;
    }
    if (d.kind === 'error') r.errors.push(d);
    if (d.kind === 'invalid') r.invalid.push(d);
    if (d.kind === 'content') r.content.push(d);
  }
  return r;
}

export function replay(
  file: string,
  id: DialectId = dialectFor(file),
  reads?: readonly Uint8Array[],
): Replay {
  return replayFrames(id, framesOf(id, reads ?? [readCorpus(file)]));
}

function dialectFor(file: string): DialectId {
  const id = CORPUS_DIALECT[file];
  if (!id) throw new Error(`No dialect mapped for ${file}`);
  return id;
}

export function corpusText(file: string): string {
  return new TextDecoder().decode(readCorpus(file));
}

/**
 * Every JSON string value of `"key":"…"` in the raw body, decoded — an oracle independent of
 * the decoders (a regex over the bytes, not a walk of the parsed chunks).
 */
export function stringsOf(raw: string, key: string): string[] {
  const re = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`, 'g');
  return [...raw.matchAll(re)].map((m) => JSON.parse(m[1]!) as string);
}
