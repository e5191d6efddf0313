/**
 * The simulator's tool calls: a request that offers function tools (OpenAI chat `tools[].function`,
 * Anthropic `tools[].input_schema`, Responses `tools[]` of type function) is answered with one tool
 * call instead of text for a seeded share of requests (option `toolCallShare`, default 0.8;
 * `tool_choice` "required" or a named tool: always; "none": never). Its arguments are JSON built
 * from the tool's schema, seeded, sized to the tokens the request generates (about one word a
 * token), and streamed in fragments as the tokens are generated (writer-tools.ts). Fault
 * `bad-tool-json` drops the arguments' closing brace, so a client's JSON check has something to find.
 */
import { Rng } from '../../shared/prng.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A tool as the sim reads it from a request body: its name and parameters schema. */
export interface SimTool {
  name: string;
  parameters: Obj;
}

export type SimToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** The request's tools, in any of the three shapes; empty when it offers none. */
export function toolsOfBody(body: Obj): SimTool[] {
  if (!Array.isArray(body.tools)) return [];
  const out: SimTool[] = [];
  for (const t of body.tools.slice(0, 128)) {
    if (!isObj(t)) continue;
    const f = isObj(t.function) ? t.function : t;
    const params = isObj(f.parameters) ? f.parameters : isObj(t.input_schema) ? t.input_schema : {};
    if (typeof f.name === 'string' && f.name) out.push({ name: f.name, parameters: params });
  }
  return out;
}

export function toolChoiceOfBody(body: Obj): SimToolChoice {
  const c = body.tool_choice;
  if (c === 'required' || c === 'none' || c === 'auto') return c;
  if (isObj(c)) {
    if (c.type === 'any') return 'required';
    if (c.type === 'none') return 'none';
    const name = isObj(c.function) ? c.function.name : c.name;
    if (typeof name === 'string') return { name };
  }
  return 'auto';
}

/** The call the sim will stream. */
export interface SimToolCall {
  id: string;
  name: string;
  arguments: string;
  /** Tokens the sequence generates: the arguments are cut into fragments over them. */
  totalTokens: number;
}

const WORDS = 'alpha beta gamma delta report region order weather city query update north south value'.split(
  ' ',
);

function words(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[rng.int(WORDS.length)]!);
  return out.join(' ');
}

/** A value that fits `s` (json-schema-lite.ts's subset), its first string made `fill` words long. */
function valueOf(s: Obj, rng: Rng, fill: { words: number }, depth = 0): unknown {
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[rng.int(s.enum.length)];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string': {
      const n = Math.max(1, fill.words);
      fill.words = 0;
      return words(rng, n);
    }
    case 'integer':
      return rng.int(100);
    case 'number':
      return Math.round(rng.next() * 1000) / 10;
    case 'boolean':
      return rng.next() < 0.5;
    case 'null':
      return null;
    case 'array':
      return depth > 6 ? [] : [valueOf(isObj(s.items) ? s.items : {}, rng, fill, depth + 1)];
    default: {
      const props = isObj(s.properties) ? s.properties : {};
      const req = Array.isArray(s.required) ? s.required : [];
      const o: Obj = {};
      for (const [k, sub] of Object.entries(props))
        if (depth <= 6 && (req.includes(k) || rng.next() < 0.5))
          o[k] = valueOf(isObj(sub) ? sub : {}, rng, fill, depth + 1);
      return o;
    }
  }
}

/**
 * The call for this request, or null (answered with text). `share` is the sim's toolCallShare;
 * `badJson`: the request carries fault bad-tool-json.
 */
export function planToolCall(
  tools: readonly SimTool[],
  choice: SimToolChoice,
  o: { seed: number; requestId: string; share: number; totalTokens: number; badJson: boolean },
): SimToolCall | null {
  if (tools.length === 0 || choice === 'none') return null;
  const rng = new Rng(o.seed, 'tool-call');
  const must = choice === 'required' || typeof choice === 'object';
  if (!must && rng.next() >= o.share) return null;
  const named = typeof choice === 'object' ? tools.find((t) => t.name === choice.name) : undefined;
  const tool = named ?? tools[rng.int(tools.length)]!;
  // ~1 word a token, less the JSON's own punctuation.
  const fill = { words: Math.max(1, o.totalTokens - 6) };
  let args = JSON.stringify(valueOf(tool.parameters, rng, fill));
  if (o.badJson) args = args.slice(0, -1);
  return {
    id: `call_${o.requestId.slice(0, 24)}`,
    name: tool.name,
    arguments: args,
    totalTokens: o.totalTokens,
  };
}

/** Cuts the arguments over the tokens: the fragment for tokens (done, done + n], the rest at the end. */
export class ArgumentStream {
  private sent = 0;
  private tokens = 0;

  constructor(private readonly call: SimToolCall) {}

  next(n: number, final: boolean): string {
    this.tokens += n;
    const total = Math.max(1, this.call.totalTokens);
    const len = this.call.arguments.length;
    const to = final ? len : Math.min(len, Math.round((len * this.tokens) / total));
    const out = this.call.arguments.slice(this.sent, to);
    this.sent = Math.max(this.sent, to);
    return out;
  }
}
