/**
 * The composer's form ⇄ FireInput (shared/api.ts). Pure, so the rules (what is sent for which
 * dialect, how the extra body and numbers are validated) are tested without a DOM.
 */
import { fail, ok, type Result, errorMessage } from '../../shared/result.ts';
import type { FireInput } from '../../shared/api.ts';
import type { DialectId } from '../../shared/dialects.ts';
import type { ChatMessage } from '../../shared/request.ts';
import { hasStreamOptions, isChatDialect } from '../targets/dialect-ui.ts';
import { headersFromRows, rowsFromHeaders, type HeaderRow } from '../targets/header-rows.ts';
import {
  DEFAULT_POOLING_INPUTS,
  isPoolingDialect,
  poolingFormFromInput,
  poolingPart,
  type PoolingForm,
} from './pooling/pooling-input.ts';

export interface ComposerForm extends PoolingForm {
  /** null: use the target's dialect. */
  dialect: DialectId | null;
  model: string;
  prompt: string;
  messages: ChatMessage[];
  maxTokens: string;
  temperature: string;
  minTokens: string;
  ignoreEos: boolean;
  includeUsage: boolean;
  continuousUsage: boolean;
  /** Send a fresh W3C traceparent and an x-request-id (docs/tracing.md). */
  traceHeaders: boolean;
  extraBody: string;
  headers: HeaderRow[];
}

export const DEFAULT_FORM: ComposerForm = {
  dialect: null,
  model: '',
  prompt: 'Explain in three sentences why streaming latency matters for chat applications.',
  messages: [
    {
      role: 'user',
      content: 'Explain in three sentences why streaming latency matters for chat applications.',
    },
  ],
  maxTokens: '128',
  temperature: '0.7',
  minTokens: '',
  ignoreEos: false,
  includeUsage: true,
  continuousUsage: false,
  traceHeaders: true,
  extraBody: '',
  headers: [],
  inputs: DEFAULT_POOLING_INPUTS,
  topN: '',
};

export type FieldErrors = Partial<
  Record<
    | 'model'
    | 'prompt'
    | 'maxTokens'
    | 'temperature'
    | 'minTokens'
    | 'extraBody'
    | 'headers'
    | 'inputs'
    | 'topN',
    string
  >
>;

export type ParseResult<T> = Result<T, string>;

/** The extra body must be a JSON object (it is merged into the request body); empty means none. */
export function parseExtraBody(text: string): ParseResult<Record<string, unknown> | undefined> {
  if (text.trim() === '') return { ok: true, value: undefined };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Invalid JSON: ${errorMessage(e)}` };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return { ok: false, error: 'The extra body must be a JSON object, e.g. {"top_k": 20}.' };
  return { ok: true, value: v as Record<string, unknown> };
}

function parseNumber(
  text: string,
  opts: { int: boolean; min: number; max: number; name: string },
): ParseResult<number | undefined> {
  const s = text.trim();
  if (s === '') return { ok: true, value: undefined };
  const v = Number(s);
  if (!Number.isFinite(v)) return { ok: false, error: `${opts.name} must be a number.` };
  if (opts.int && !Number.isInteger(v)) return { ok: false, error: `${opts.name} must be a whole number.` };
  if (v < opts.min || v > opts.max)
    return { ok: false, error: `${opts.name} must be between ${opts.min} and ${opts.max}.` };
  return { ok: true, value: v };
}

export function buildFireInput(
  form: ComposerForm,
  targetId: string,
  targetDialect: DialectId,
): Result<FireInput, FieldErrors> {
  const errors: FieldErrors = {};
  const dialect = form.dialect ?? targetDialect;
  const model = form.model.trim();
  if (!model) errors.model = 'Pick or type a model.';
  if (isPoolingDialect(dialect)) return buildPoolingInput(form, targetId, dialect, errors);
  const maxTokens = parseNumber(form.maxTokens, { int: true, min: 1, max: 1_000_000, name: 'Max tokens' });
  const temperature = parseNumber(form.temperature, { int: false, min: 0, max: 10, name: 'Temperature' });
  const minTokens = parseNumber(form.minTokens, { int: true, min: 0, max: 1_000_000, name: 'Min tokens' });
  const extra = parseExtraBody(form.extraBody);
  const headers = headersFromRows(form.headers);
  if (!maxTokens.ok) errors.maxTokens = maxTokens.error;
  if (!temperature.ok) errors.temperature = temperature.error;
  if (!minTokens.ok) errors.minTokens = minTokens.error;
  if (!extra.ok) errors.extraBody = extra.error;
  if (!headers.ok) errors.headers = headers.error;
  const chat = isChatDialect(dialect);
  const messages = form.messages.filter((m) => m.content.trim() !== '');
  if (chat ? messages.length === 0 : form.prompt.trim() === '')
    errors.prompt = chat ? 'Add at least one message.' : 'Type a prompt.';
  if (
    Object.keys(errors).length ||
    !maxTokens.ok ||
    !temperature.ok ||
    !minTokens.ok ||
    !extra.ok ||
    !headers.ok
  )
    return fail(errors);

  const params: NonNullable<FireInput['params']> = {};
  if (maxTokens.value !== undefined) params.maxTokens = maxTokens.value;
  if (temperature.value !== undefined) params.temperature = temperature.value;
  if (minTokens.value !== undefined) params.minTokens = minTokens.value;
  if (form.ignoreEos) params.ignoreEos = true;
  const input: FireInput = { targetId, dialect, model };
  if (chat) input.messages = messages;
  else input.prompt = form.prompt;
  if (Object.keys(params).length) input.params = params;
  if (extra.value) input.extraBody = extra.value;
  if (headers.value) input.headers = headers.value;
  if (!form.traceHeaders) input.traceHeaders = false;
  if (hasStreamOptions(dialect)) {
    input.includeUsage = form.includeUsage;
    input.continuousUsage = form.continuousUsage;
  }
  return ok(input);
}

/**
 * Embeddings and rerank: no messages, sampling or stream options (the endpoints take none); the
 * batch, the query and top_n instead; extra body, headers and trace headers as for every dialect.
 */
function buildPoolingInput(
  form: ComposerForm,
  targetId: string,
  dialect: DialectId,
  errors: FieldErrors,
): Result<FireInput, FieldErrors> {
  const part = poolingPart(form, dialect);
  const extra = parseExtraBody(form.extraBody);
  const headers = headersFromRows(form.headers);
  if (!part.ok) Object.assign(errors, part.errors);
  if (!extra.ok) errors.extraBody = extra.error;
  if (!headers.ok) errors.headers = headers.error;
  if (Object.keys(errors).length || !part.ok || !extra.ok || !headers.ok) return fail(errors);
  const input: FireInput = { targetId, dialect, model: form.model.trim(), ...part.value };
  if (extra.value) input.extraBody = extra.value;
  if (headers.value) input.headers = headers.value;
  if (!form.traceHeaders) input.traceHeaders = false;
  return ok(input);
}

/** A request's FireInput back into the form (re-run with edits). */
export function formFromInput(input: FireInput, prev: ComposerForm): ComposerForm {
  const p = input.params ?? {};
  const messages =
    input.messages ??
    (input.prompt !== undefined ? [{ role: 'user' as const, content: input.prompt }] : prev.messages);
  return {
    ...prev,
    dialect: input.dialect ?? null,
    model: input.model,
    prompt: input.prompt ?? input.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? prev.prompt,
    messages,
    maxTokens: p.maxTokens !== undefined ? String(p.maxTokens) : '',
    temperature: p.temperature !== undefined ? String(p.temperature) : '',
    minTokens: p.minTokens !== undefined ? String(p.minTokens) : '',
    ignoreEos: p.ignoreEos === true,
    includeUsage: input.includeUsage ?? true,
    continuousUsage: input.continuousUsage ?? false,
    traceHeaders: input.traceHeaders ?? true,
    extraBody: input.extraBody ? JSON.stringify(input.extraBody, null, 2) : '',
    headers: rowsFromHeaders(input.headers),
    ...poolingFormFromInput(input, prev),
  };
}
