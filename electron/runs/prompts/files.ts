/**
 * File prompt sources.
 *
 * ShareGPT, as vLLM's ShareGPTDataset samples it (vllm/benchmarks/datasets.py): keep entries with
 * ≥ 2 conversation turns, shuffle with the seed, prompt = conversations[0].value, output length =
 * tokens of conversations[1].value (or the fixed outputLen), and skip pairs vLLM's
 * `is_valid_sequence` rejects (prompt < 4 or > 1024 tokens, output < 4 unless fixed, prompt +
 * output > 2048). vLLM counts with the model's tokenizer (BOS included, as `tokenizer(text)`
 * does); we count with the BPE stand-in + BOS, so the same file gives similar, not identical, picks.
 * When more requests are asked than valid pairs exist, vLLM oversamples at random; we cycle
 * through the shuffled list again (deterministic, and every prompt is used before any repeats).
 *
 * Conversations (multi-turn sessions): every human turn of an entry, in order (see
 * `loadShareGptConversations`).
 *
 * JSONL: one item per line — a JSON string, {"prompt": "…"} or {"messages": [{role, content}…]},
 * optionally with "output_len" (or "max_tokens"). Bad lines fail the load with their numbers.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { Rng } from '../../../shared/prng.ts';
import type { PromptSource } from '../../../shared/runs/workload/workload.ts';
import { countChatTokens, countPromptTokens, countTextTokens } from '../../../shared/tokenizer.ts';
import { describeDist, sampleLength, type PromptItem, type PromptProvider } from './items.ts';
import { turnItem, type ConversationProvider, type PlannedTurn } from '../sessions/conversation.ts';
import { errorMessage } from '../../../shared/result.ts';
import { IMAGE_LIMITS } from '../../../shared/runs/workload/images.ts';
import { attachRowImages } from './row-images.ts';

export class PromptFileError extends Error {}

export async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new PromptFileError(
      `cannot read prompt file ${file}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`,
    );
  }
}

/** A provider over a finite list: main stream cycles in order, warm-up and test pick from their own streams. */
export function listProvider(
  description: string,
  size: number,
  force: PromptProvider['force'],
  item: (k: number) => PromptItem,
  seed: number,
): PromptProvider {
  return {
    description,
    size,
    force,
    at(i, stream = 'main') {
      if (stream === 'main') return item(i % size);
      return item(new Rng(seed, `${stream}:pick:${i}`).int(size));
    },
  };
}

function turnText(t: unknown): string | null {
  if (typeof t !== 'object' || t === null) return null;
  const o = t as Record<string, unknown>;
  const v = o.value ?? o.content ?? o.text;
  return typeof v === 'string' ? v : null;
}

/** The file's entries with a conversation of ≥ 2 turns, shuffled with the seed (vLLM's order). */
async function shareGptEntries(
  file: string,
  seed: number,
): Promise<{ entries: { conversations: unknown[] }[]; total: number }> {
  let data: unknown;
  try {
    data = JSON.parse(await readText(file));
  } catch (e) {
    if (e instanceof PromptFileError) throw e;
    throw new PromptFileError(`${file}: not JSON (${errorMessage(e)})`);
  }
  if (!Array.isArray(data))
    throw new PromptFileError(`${file}: a ShareGPT file is a JSON array of {conversations: [...]}`);
  const entries = data.filter((e): e is { conversations: unknown[] } => {
    const c = (e as { conversations?: unknown } | null)?.conversations;
    return Array.isArray(c) && c.length >= 2;
  });
  new Rng(seed, 'sharegpt').shuffle(entries);
  return { entries, total: data.length };
}

export async function loadShareGpt(
  src: Extract<PromptSource, { type: 'sharegpt' }>,
  seed: number,
  baseDir: string,
): Promise<PromptProvider> {
  const file = path.resolve(baseDir, src.path);
  const { entries, total } = await shareGptEntries(file, seed);
  const valid: PromptItem[] = [];
  for (const e of entries) {
    const prompt = turnText(e.conversations[0]);
    const completion = turnText(e.conversations[1]);
    if (prompt === null || completion === null) continue;
    const promptLen = countPromptTokens(prompt);
    const outLen = src.outputLen ?? countPromptTokens(completion);
    const tooShort = promptLen < 4 || (src.outputLen === undefined && outLen < 4);
    if (tooShort || promptLen > 1024 || promptLen + outLen > 2048) continue;
    valid.push({ prompt, inputTokens: promptLen, outputTokens: outLen });
  }
  if (valid.length === 0)
    throw new PromptFileError(
      `${file}: no usable conversation (need ≥ 2 turns, prompt 4–1024 tokens, total ≤ 2048)`,
    );
  return listProvider(
    `ShareGPT ${path.basename(file)} (${valid.length} usable of ${total})`,
    valid.length,
    src.force,
    (k) => valid[k]!,
    seed,
  );
}

/** Who spoke a ShareGPT turn: "human"/"user" are the user's; "gpt"/"assistant"/"chatgpt"/"bard" the model's. */
function isHuman(t: unknown): boolean {
  const o = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
  const who = o.from ?? o.role;
  return who === 'human' || who === 'user';
}

/** A conversation stops growing past this many estimated tokens (users' and answers'): real servers' contexts end. */
const CONVERSATION_TOKEN_CAP = 16_384;

/**
 * Whole ShareGPT conversations for multi-turn sessions: each human turn in order (at most
 * `maxTurns`), its output length the next model turn's tokens (or the fixed outputLen).
 * Conversations without a human turn followed by an answer are skipped.
 */
export async function loadShareGptConversations(
  src: Extract<PromptSource, { type: 'sharegpt' }>,
  maxTurns: number,
  seed: number,
  baseDir: string,
): Promise<ConversationProvider> {
  const file = path.resolve(baseDir, src.path);
  const { entries, total } = await shareGptEntries(file, seed);
  const convs: PlannedTurn[][] = [];
  for (const e of entries) {
    const turns: PlannedTurn[] = [];
    let used = 0;
    const c = e.conversations;
    for (let k = 0; k + 1 < c.length && turns.length < maxTurns; k++) {
      const user = turnText(c[k]);
      const reply = turnText(c[k + 1]);
      if (!isHuman(c[k]) || isHuman(c[k + 1]) || user === null || reply === null || user.trim() === '')
        continue;
      const out = src.outputLen ?? Math.max(1, countTextTokens(reply));
      used += countTextTokens(user) + out;
      if (used > CONVERSATION_TOKEN_CAP && turns.length > 0) break;
      turns.push({ user, outputTokens: out });
      k++; // past the reply
    }
    if (turns.length > 0) convs.push(turns);
  }
  if (convs.length === 0)
    throw new PromptFileError(`${file}: no conversation with a human turn and an answer`);
  const first = (k: number): PromptItem => turnItem([], convs[k]![0]!);
  const base = listProvider(
    `ShareGPT ${path.basename(file)} (${convs.length} conversations of ${total})`,
    convs.length,
    src.force,
    first,
    seed,
  );
  return { ...base, conversation: (i) => convs[i % convs.length]! };
}

/** A row's image files (PNG or JPEG, relative to the JSONL file): electron/runs/prompts/images.ts reads them. */
const JsonlImages = z.array(z.string().min(1)).min(1).max(IMAGE_LIMITS.perRequest).optional();
const Message = z.object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.string() });
const JsonlLine = z.union([
  z.string(),
  z.object({
    prompt: z.string(),
    output_len: z.number().int().min(1).optional(),
    max_tokens: z.number().int().min(1).optional(),
    images: JsonlImages,
  }),
  z.object({
    messages: z.array(Message).min(1),
    output_len: z.number().int().min(1).optional(),
    max_tokens: z.number().int().min(1).optional(),
    images: JsonlImages,
  }),
]);

export async function loadJsonlPrompts(
  src: Extract<PromptSource, { type: 'jsonl' }>,
  seed: number,
  baseDir: string,
): Promise<PromptProvider> {
  const file = path.resolve(baseDir, src.path);
  const lines = (await readText(file)).split('\n');
  const items: {
    item: Omit<PromptItem, 'outputTokens'>;
    out: number | null;
    images?: string[];
    line?: number;
  }[] = [];
  const errors: string[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      errors.push(`line ${i + 1}: not JSON`);
      return;
    }
    const r = JsonlLine.safeParse(v);
    if (!r.success) {
      // The union says only that no shape fitted: a bad `images` is named on its own.
      const img =
        typeof v === 'object' && v !== null && 'images' in v ? JsonlImages.safeParse(v.images) : null;
      if (img && !img.success)
        return void errors.push(
          `line ${i + 1}: images: ${img.error.issues[0]?.message ?? 'invalid'} (a list of image files)`,
        );
      errors.push(`line ${i + 1}: expected a string, {"prompt": …} or {"messages": [...]}`);
      return;
    }
    const d = r.data;
    if (typeof d === 'string')
      items.push({ item: { prompt: d, inputTokens: countTextTokens(d) }, out: null });
    else if ('prompt' in d)
      items.push({
        item: { prompt: d.prompt, inputTokens: countTextTokens(d.prompt) },
        out: d.output_len ?? d.max_tokens ?? null,
        ...(d.images ? { images: d.images, line: i + 1 } : {}),
      });
    else
      items.push({
        item: { messages: d.messages, inputTokens: countChatTokens(d.messages) },
        out: d.output_len ?? d.max_tokens ?? null,
        ...(d.images ? { images: d.images, line: i + 1 } : {}),
      });
  });
  if (errors.length > 0)
    throw new PromptFileError(
      `${file}: ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? ` (+${errors.length - 5} more)` : ''}`,
    );
  if (items.length === 0) throw new PromptFileError(`${file}: no prompts`);
  const withImages = await attachRowImages(items, path.dirname(file), file);
  if (src.shuffle) new Rng(seed, 'jsonl').shuffle(items);
  const outDist = src.outputLen;
  const item = (k: number): PromptItem => {
    const it = items[k]!;
    const out = it.out ?? (outDist ? sampleLength(outDist, new Rng(seed, `jsonl:out:${k}`)) : null);
    return { ...it.item, outputTokens: out };
  };
  const desc = `JSONL ${path.basename(file)} (${items.length} prompts${outDist ? `, output ${describeDist(outDist)}` : ''})`;
  const p = listProvider(desc, items.length, src.force, item, seed);
  return withImages ? { ...p, hasImages: true } : p;
}
