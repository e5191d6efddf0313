/**
 * Images in a chat request: the last user message's content becomes a list of parts, its text and
 * then the images (OpenAI chat: `{"type":"image_url","image_url":{"url":"data:image/png;base64,…"}}`,
 * https://platform.openai.com/docs/guides/images-vision, as vLLM serves it), or the images and
 * then its text (Anthropic Messages: `{"type":"image","source":{"type":"base64","media_type",
 * "data"}}`, images first as Anthropic's docs advise). Without images a message stays a string.
 */
import type { ChatMessage, RequestImage } from '../../../shared/request.ts';

type Part = Record<string, unknown>;
export interface WireMessage {
  role: ChatMessage['role'];
  content: string | Part[];
}

function lastUser(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

function attach(
  messages: ChatMessage[],
  images: readonly RequestImage[] | undefined,
  parts: (text: string, images: readonly RequestImage[]) => Part[],
): WireMessage[] {
  if (!images || images.length === 0) return messages;
  const out: WireMessage[] = [...messages];
  let k = lastUser(messages);
  if (k < 0) {
    out.push({ role: 'user', content: '' });
    k = out.length - 1;
  }
  out[k] = { role: 'user', content: parts(messages[k]?.content ?? '', images) };
  return out;
}

export function withOpenAiImages(
  messages: ChatMessage[],
  images: readonly RequestImage[] | undefined,
): WireMessage[] {
  return attach(messages, images, (text, imgs) => [
    { type: 'text', text },
    ...imgs.map((im) => ({
      type: 'image_url',
      image_url: { url: `data:${im.mediaType};base64,${im.base64}` },
    })),
  ]);
}

export function withAnthropicImages(
  messages: ChatMessage[],
  images: readonly RequestImage[] | undefined,
): WireMessage[] {
  return attach(messages, images, (text, imgs) => [
    ...imgs.map((im) => ({
      type: 'image',
      source: { type: 'base64', media_type: im.mediaType, data: im.base64 },
    })),
    { type: 'text', text },
  ]);
}
