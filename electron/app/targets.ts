/**
 * The user's list of servers, persisted as JSON in the user-data folder. The built-in simulator
 * is always the first target (not persisted; its URL is the port it got this launch).
 * API keys are stored only as SecretBox output, and only when the box can persist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { TargetInput, TargetView } from '../../shared/api.ts';
import { DIALECT_IDS, type DialectId } from '../../shared/dialects.ts';
import type { SecretBox } from './secrets.ts';

const StoredTarget = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  dialect: z.enum(DIALECT_IDS),
  defaultModel: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  apiKeyEnc: z.string().optional(),
  metricsUrl: z.string().optional(),
  prometheusUrl: z.string().optional(),
  prometheusSelector: z.string().optional(),
  metricsIntervalMs: z.number().optional(),
  metricsTimeoutMs: z.number().optional(),
  insecureTls: z.boolean().optional(),
});
type StoredTarget = z.infer<typeof StoredTarget>;
const StoreFile = z.object({ version: z.literal(1), targets: z.array(StoredTarget) });

export const SIM_TARGET_ID = 'builtin-sim';

export interface ResolvedTarget {
  id: string;
  name: string;
  baseUrl: string;
  dialect: DialectId;
  defaultModel?: string;
  headers: Record<string, string>;
  apiKey?: string;
  metricsUrl?: string;
  /** Server metrics from this Prometheus (with prometheusSelector) instead of the /metrics URL. */
  prometheusUrl?: string;
  prometheusSelector?: string;
  metricsIntervalMs?: number;
  metricsTimeoutMs?: number;
  insecureTls: boolean;
}

export class TargetStore {
  private targets: StoredTarget[] = [];
  /** Keys held in memory when they cannot be persisted (by target id). */
  private memKeys = new Map<string, string>();
  simUrl: string | null = null;
  loadError: string | null = null;

  constructor(
    private readonly file: string | null,
    private readonly secrets: SecretBox,
  ) {
    this.load();
  }

  private load(): void {
    if (!this.file || !fs.existsSync(this.file)) return;
    try {
      const parsed = StoreFile.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      if (parsed.success) this.targets = parsed.data.targets;
      else this.loadError = `targets file ignored: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
    } catch (e) {
      this.loadError = `targets file unreadable: ${(e as Error).message}`;
    }
  }

  private persist(): void {
    if (!this.file) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, targets: this.targets }, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }

  list(): TargetView[] {
    const out: TargetView[] = [];
    if (this.simUrl)
      out.push({
        id: SIM_TARGET_ID,
        name: 'Built-in simulator',
        baseUrl: this.simUrl,
        dialect: 'openai-chat',
        hasApiKey: false,
        builtin: true,
        defaultModel: 'tokenscope-sim',
      });
    for (const t of this.targets) out.push(this.view(t));
    return out;
  }

  private view(t: StoredTarget): TargetView {
    return {
      id: t.id,
      name: t.name,
      baseUrl: t.baseUrl,
      dialect: t.dialect,
      defaultModel: t.defaultModel,
      headers: t.headers,
      hasApiKey: Boolean(t.apiKeyEnc) || this.memKeys.has(t.id),
      metricsUrl: t.metricsUrl,
      prometheusUrl: t.prometheusUrl,
      prometheusSelector: t.prometheusSelector,
      metricsIntervalMs: t.metricsIntervalMs,
      metricsTimeoutMs: t.metricsTimeoutMs,
      insecureTls: t.insecureTls,
      builtin: false,
    };
  }

  save(input: TargetInput): TargetView {
    if (input.id === SIM_TARGET_ID) throw new Error('The built-in simulator cannot be edited.');
    const id = input.id ?? randomUUID();
    const prev = this.targets.find((t) => t.id === id);
    const next: StoredTarget = {
      id,
      name: input.name,
      baseUrl: input.baseUrl,
      dialect: input.dialect,
      defaultModel: input.defaultModel,
      headers: input.headers,
      metricsUrl: input.metricsUrl,
      prometheusUrl: input.prometheusUrl,
      prometheusSelector: input.prometheusUrl !== undefined ? input.prometheusSelector : undefined,
      metricsIntervalMs: input.metricsIntervalMs,
      metricsTimeoutMs: input.metricsTimeoutMs,
      insecureTls: input.insecureTls,
      apiKeyEnc: prev?.apiKeyEnc,
    };
    if (input.apiKey !== undefined) {
      delete next.apiKeyEnc;
      this.memKeys.delete(id);
      if (input.apiKey !== '') {
        if (this.secrets.canPersist) next.apiKeyEnc = this.secrets.encrypt(input.apiKey);
        else this.memKeys.set(id, input.apiKey);
      }
    }
    this.targets = prev ? this.targets.map((t) => (t.id === id ? next : t)) : [...this.targets, next];
    this.persist();
    return this.view(next);
  }

  delete(id: string): boolean {
    const before = this.targets.length;
    this.targets = this.targets.filter((t) => t.id !== id);
    this.memKeys.delete(id);
    if (this.targets.length === before) return false;
    this.persist();
    return true;
  }

  /** The target with its secret, for the engine only (main process). */
  resolve(id: string): ResolvedTarget | null {
    if (id === SIM_TARGET_ID) {
      if (!this.simUrl) return null;
      return {
        id,
        name: 'Built-in simulator',
        baseUrl: this.simUrl,
        dialect: 'openai-chat',
        headers: {},
        insecureTls: false,
        defaultModel: 'tokenscope-sim',
      };
    }
    const t = this.targets.find((x) => x.id === id);
    if (!t) return null;
    const apiKey =
      this.memKeys.get(id) ?? (t.apiKeyEnc ? (this.secrets.decrypt(t.apiKeyEnc) ?? undefined) : undefined);
    return {
      id: t.id,
      name: t.name,
      baseUrl: t.baseUrl,
      dialect: t.dialect,
      defaultModel: t.defaultModel,
      headers: t.headers ?? {},
      apiKey,
      metricsUrl: t.metricsUrl,
      prometheusUrl: t.prometheusUrl,
      prometheusSelector: t.prometheusSelector,
      metricsIntervalMs: t.metricsIntervalMs,
      metricsTimeoutMs: t.metricsTimeoutMs,
      insecureTls: t.insecureTls === true,
    };
  }
}
