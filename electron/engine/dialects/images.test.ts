/**
 * Images on the wire: the last user message becomes parts — OpenAI chat: its text, then one
 * `image_url` part per image with a data URL (platform.openai.com/docs/guides/images-vision);
 * Anthropic Messages: one base64 `image` block per image, then its text
 * (docs.anthropic.com/en/docs/build-with-claude/vision). Without images, strings as before.
 */
import { describe, expect, it } from 'vitest';
import { buildRequestBody } from '../body.ts';
import { getDialect } from './index.ts';
import type { RequestSpec } from '../../../shared/request.ts';

const spec = (dialect: RequestSpec['dialect'], over: Partial<RequestSpec> = {}): RequestSpec => ({
  url: 'http://127.0.0.1:1',
  dialect,
  model: 'm',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: 'what is in it?' },
  ],
  images: [
    { mediaType: 'image/png', base64: 'iVBORw0KGgo=' },
    { mediaType: 'image/jpeg', base64: '/9j/4AAQ' },
  ],
  ...over,
});

describe('images in request bodies', () => {
  it('openai-chat: text then image_url data URLs, in the last user message only', () => {
    const b = buildRequestBody(getDialect('openai-chat'), spec('openai-chat'));
    const m = b.messages as { role: string; content: unknown }[];
    expect(m[1]).toEqual({ role: 'user', content: 'first' });
    expect(m[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is in it?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
      ],
    });
  });

  it('anthropic-messages: base64 image blocks, then the text', () => {
    const b = buildRequestBody(getDialect('anthropic-messages'), spec('anthropic-messages'));
    expect(b.system).toBe('be brief');
    const m = b.messages as { role: string; content: unknown }[];
    expect(m.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
        { type: 'text', text: 'what is in it?' },
      ],
    });
  });

  it('a bare prompt gets its images too; no images, no parts', () => {
    const b = buildRequestBody(
      getDialect('openai-chat'),
      spec('openai-chat', { messages: undefined, prompt: 'hi' }),
    );
    expect((b.messages as { content: unknown[] }[])[0]!.content).toHaveLength(3);
    const plain = buildRequestBody(getDialect('openai-chat'), spec('openai-chat', { images: undefined }));
    expect((plain.messages as { content: unknown }[])[3]!.content).toBe('what is in it?');
  });
});
