/**
 * Whether the server answered as another model than the one asked for. Servers that serve what
 * they have loaded (llama.cpp with one model, TGI) accept any `model` and name their own in the
 * response, so a typo or a stale name passes silently — what probe and run's test request warn
 * about. Not a difference: the same name, a more specific one that starts with it (OpenAI's
 * `gpt-4o` → `gpt-4o-2024-08-06`, Ollama's `llama3.2` → `llama3.2:latest`), or the same last path
 * part (`/models/Llama-3.1-8B` asked, `Llama-3.1-8B` answered).
 */

const last = (m: string): string => m.slice(m.lastIndexOf('/') + 1);

/** The answered model when it is another one than asked; null when the same, or nothing was named. */
export function otherModelAnswered(asked: string, answered: string | null | undefined): string | null {
  if (!answered || !asked) return null;
  if (answered === asked || answered.startsWith(asked)) return null;
  if (last(answered) === last(asked) || last(answered).startsWith(last(asked))) return null;
  return answered;
}

/** The warning, in words: what was asked, what answered, and the usual reason. */
export function otherModelText(asked: string, answered: string): string {
  return `asked for model "${asked}", the server answered as "${answered}": it may serve what it has loaded whatever the name (llama.cpp does), so check --model`;
}
