/**
 * Generated text: a seeded stream of word-like tokens ("Hello", " world", ",", ".") that reads
 * like prose in a UI and exercises what clients get wrong: a few multi-byte UTF-8 words (split
 * across TCP reads), `<`, `>` and `&` (Go-escaped by Ollama, test-corpus/FORMATS.md §2.5), and paragraph
 * breaks. Tokens are words with their leading space, like a BPE vocabulary's common pieces.
 *
 * Each request gets its own generator, seeded from (sim seed, prompt, request seed or order), so
 * the text and the natural output length (where EOS would fall) do not depend on max_tokens or
 * on what other requests are running.
 */
import { hash32, Rng } from '../../shared/prng.ts';

export interface GenToken {
  /** Detokenized text ('' for EOS, as vLLM streams it with skip_special_tokens). */
  text: string;
  id: number;
  special: boolean;
  logprob: number;
}

/** Llama 3's `<|eot_id|>`; TGI shows its raw piece, the other servers an empty delta. */
const EOS_ID = 128009;
export const EOS_PIECE = '<|eot_id|>';

const WORDS = (
  'the of and to in is that it for as with on was be by this are or from at an which but not have ' +
  'model token server request stream latency batch cache memory queue prompt output time first ' +
  'each per second throughput decode prefill step sequence scheduler engine metric value client ' +
  'response chunk event data network socket buffer window context length budget system user ' +
  'simple fast slow large small new old high low good better best more most many much some any ' +
  'every other same different important clear useful possible likely usually often always never ' +
  'can will would should could may might must does did has had makes uses runs shows keeps takes ' +
  'gives finds reads writes sends waits starts stops grows drops measures counts compares explains ' +
  'because when while after before during between through across under over into about without ' +
  'result answer question example reason problem approach idea detail part point case way number'
).split(' ');

/** Rare tokens that stress clients: multi-byte UTF-8 and characters JSON encoders may escape. */
const RARE = [' café', ' naïve', ' 東京', ' —', ' <div>', ' &', ' “quoted”', ' ✓'];

const SENTENCE_END = ['.', '.', '.', '.', '?', '!'];

/** Natural output length (EOS position): log-normal, median 100 tokens, like chat answers. */
const LENGTH_MEDIAN = 100;
const LENGTH_SIGMA = 0.9;
const LENGTH_MAX = 8192;

export function tokenId(text: string): number {
  return 1000 + (hash32(text) % 120000);
}

export class TextGenerator {
  /** 1-based index at which this request's EOS token would be sampled. */
  readonly naturalLength: number;
  private readonly rng: Rng;
  private wordsLeft = 0;
  private capitalize = true;
  private leadingSpace = false;
  private pendingBreak = false;

  constructor(seed: number) {
    this.rng = new Rng(seed);
    const len = Math.round(LENGTH_MEDIAN * Math.exp(LENGTH_SIGMA * this.rng.normal()));
    this.naturalLength = Math.min(LENGTH_MAX, Math.max(1, len));
  }

  next(): GenToken {
    const r = this.rng;
    let text: string;
    if (this.pendingBreak) {
      this.pendingBreak = false;
      text = '\n\n';
    } else if (this.wordsLeft === 0 && !this.capitalize) {
      // end of sentence; sometimes a paragraph break follows
      text = SENTENCE_END[r.int(SENTENCE_END.length)] ?? '.';
      this.capitalize = true;
      this.pendingBreak = r.next() < 0.15;
      this.leadingSpace = !this.pendingBreak;
    } else if (!this.capitalize && this.wordsLeft > 2 && r.next() < 0.07) {
      text = ',';
    } else {
      if (this.capitalize) this.wordsLeft = 5 + r.int(14);
      const rare = r.next() < 0.02;
      let word = rare
        ? (RARE[r.int(RARE.length)] ?? ' café').trimStart()
        : (WORDS[r.int(WORDS.length)] ?? 'the');
      if (this.capitalize) word = word.charAt(0).toUpperCase() + word.slice(1);
      text = (this.leadingSpace ? ' ' : '') + word;
      this.capitalize = false;
      this.leadingSpace = true;
      this.wordsLeft--;
    }
    return this.token(text);
  }

  private token(text: string): GenToken {
    const lp = -Math.round(this.rng.next() ** 3 * 30000) / 10000;
    return { text, id: tokenId(text), special: false, logprob: lp };
  }
}

export function eosToken(): GenToken {
  return { text: '', id: EOS_ID, special: true, logprob: -0.0001 };
}
