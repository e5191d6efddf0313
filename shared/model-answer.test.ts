import { describe, expect, it } from 'vitest';
import { otherModelAnswered } from './model-answer.ts';

describe('otherModelAnswered', () => {
  it('is the answered name when the server served another model', () => {
    expect(otherModelAnswered('llama-3-8b', 'llama-3.2-1b-instruct-q4_k_m.gguf')).toBe(
      'llama-3.2-1b-instruct-q4_k_m.gguf',
    );
    expect(otherModelAnswered('Qwen/Qwen3-8B', 'meta-llama/Llama-3.1-8B')).toBe('meta-llama/Llama-3.1-8B');
  });

  it('is null for the same model named more precisely, or nothing named', () => {
    expect(otherModelAnswered('gpt-4o', 'gpt-4o-2024-08-06')).toBeNull();
    expect(otherModelAnswered('llama3.2', 'llama3.2:latest')).toBeNull();
    expect(otherModelAnswered('/models/Llama-3.1-8B', 'Llama-3.1-8B')).toBeNull();
    expect(otherModelAnswered('tokenscope-sim', 'tokenscope-sim')).toBeNull();
    expect(otherModelAnswered('x', undefined)).toBeNull();
  });
});
