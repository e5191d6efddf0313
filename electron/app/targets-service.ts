/**
 * The user's list of servers, persisted as JSON in the user-data folder. The built-in simulator
 * is always the first target (not persisted; its URL is the port it got this launch).
 * API keys are stored only as SecretBox output, and only when the box can persist; so are the
 * secret parts of its URLs (credentials, secret query values: target-url-secrets.ts), which the UI
 * and the file see as `***`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { TargetInput, TargetView } from '../../shared/api.ts';
import { TargetSettings } from '../../shared/target.ts';
import type { SecretBox } from './secrets.ts';
import { looksSecretName, redactUrlString } from '../../shared/redact.ts';
import { originOf } from '../../shared/origin.ts';
import {
  joinTargetUrls,
  openUrlSecrets,
  sealUrlSecrets,
  splitTargetUrls,
  type UrlSecretMap,
} from './target-url-secrets.ts';
import { errorMessage } from '../../shared/result.ts';

const StoredTarget = TargetSettings.extend({
  headers: z.record(z.string(), z.string()).optional(),
  apiKeyEnc: z.string().optional(),
  /** Secret header values, each as SecretBox output (never in clear on disk). */
  secretHeadersEnc: z.record(z.string(), z.string()).optional(),
  /** The secret parts of its URLs (target-url-secrets.ts), as SecretBox output. */
  urlSecretsEnc: z.string().optional(),
});
type StoredTarget = z.infer<typeof StoredTarget>;
const StoreFile = z.object({ version: z.literal(1), targets: z.array(StoredTarget) });

/** @internal exported for its tests */
export const SIM_TARGET_ID = 'builtin-sim';

export interface ResolvedTarget extends TargetSettings {
  /** Every header to send, the secret ones included (main process only). */
  headers: Record<string, string>;
  /** Which of `headers` are secrets (redacted in curl commands, withheld from other hosts). */
  secretHeaderNames?: string[];
  apiKey?: string;
  insecureTls: boolean;
}

export class TargetStore {
  private targets: StoredTarget[] = [];
  /** Keys held in memory when they cannot be persisted (by target id). */
  private memKeys = new Map<string, string>();
  /** Secret header values held in memory when they cannot be persisted (by target id). */
  private memHeaders = new Map<string, Record<string, string>>();
  /** URL secrets held in memory when they cannot be persisted (by target id). */
  private memUrls = new Map<string, UrlSecretMap>();
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
      if (parsed.success) {
        this.targets = parsed.data.targets;
        this.sealClearUrls();
      } else this.loadError = `targets file ignored: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
    } catch (e) {
      this.loadError = `targets file unreadable: ${errorMessage(e)}`;
    }
  }

  /** A file from before URL secrets were kept apart: take them out of its URLs, and rewrite it. */
  private sealClearUrls(): void {
    let moved = false;
    this.targets = this.targets.map((t) => {
      const { target, secrets } = splitTargetUrls(t);
      if (Object.keys(secrets).length === 0) return t;
      moved = true;
      return this.withUrlSecrets(target, { ...this.urlSecretsOf(t), ...secrets });
    });
    if (moved) this.persist();
  }

  /** `t` keeping `map` as its URL secrets: sealed in it when the box can persist, else in memory. */
  private withUrlSecrets(t: StoredTarget, map: UrlSecretMap): StoredTarget {
    const next = { ...t };
    delete next.urlSecretsEnc;
    this.memUrls.delete(t.id);
    if (Object.keys(map).length === 0) return next;
    if (this.secrets.canPersist) next.urlSecretsEnc = sealUrlSecrets(this.secrets, map);
    else this.memUrls.set(t.id, map);
    return next;
  }

  private urlSecretsOf(t: StoredTarget | undefined): UrlSecretMap {
    if (!t) return {};
    return this.memUrls.get(t.id) ?? openUrlSecrets(this.secrets, t.urlSecretsEnc);
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
        telemetryUrls: [`${this.simUrl}/gpu-metrics`],
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
      secretHeaderNames: Object.keys(this.secretHeadersOf(t)).sort(),
      hasApiKey: Boolean(t.apiKeyEnc) || this.memKeys.has(t.id),
      metricsUrl: t.metricsUrl,
      telemetryUrls: t.telemetryUrls,
      metricsEndpoints: t.metricsEndpoints,
      prometheusUrl: t.prometheusUrl,
      prometheusSelector: t.prometheusSelector,
      metricsIntervalMs: t.metricsIntervalMs,
      metricsTimeoutMs: t.metricsTimeoutMs,
      insecureTls: t.insecureTls,
      builtin: false,
    };
  }

  /** A target's secret header values, decrypted (or from memory). */
  private secretHeadersOf(t: StoredTarget | undefined): Record<string, string> {
    if (!t) return {};
    const mem = this.memHeaders.get(t.id);
    if (mem) return { ...mem };
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(t.secretHeadersEnc ?? {})) {
      const plain = this.secrets.decrypt(v);
      if (plain !== null) out[k] = plain;
    }
    return out;
  }

  save(input: TargetInput): TargetView {
    if (input.id === SIM_TARGET_ID) throw new Error('The built-in simulator cannot be edited.');
    // The contract's schema refuses these too; the store never saves a URL the engine would refuse.
    const roleUrls = (input.metricsEndpoints ?? []).map((e) => e.url);
    for (const u of [
      input.baseUrl,
      input.metricsUrl,
      input.prometheusUrl,
      ...(input.telemetryUrls ?? []),
      ...roleUrls,
    ])
      if (u !== undefined && !/^https?:\/\/[^/]/i.test(u))
        throw new Error(`"${redactUrlString(u)}": only http:// and https:// URLs can be used.`);
    const id = input.id ?? randomUUID();
    const prev = this.targets.find((t) => t.id === id);
    // A key (and secret headers) must not silently follow a target to another host.
    const moved = prev !== undefined && originOf(prev.baseUrl) !== originOf(input.baseUrl);
    const keep = !moved || input.keepApiKey === true;
    // Headers whose names say they are secrets are kept as secrets, whatever list they came in.
    const plain: Record<string, string> = {};
    const wanted: { name: string; value?: string }[] = [];
    for (const [k, v] of Object.entries(input.headers ?? {})) {
      if (looksSecretName(k)) wanted.push({ name: k, value: v });
      else plain[k] = v;
    }
    const prevSecret = keep ? this.secretHeadersOf(prev) : {};
    for (const h of input.secretHeaders ?? Object.keys(prevSecret).map((name) => ({ name }))) wanted.push(h);
    const secretHeaders: Record<string, string> = {};
    for (const h of wanted) {
      const v = h.value ?? prevSecret[h.name];
      if (v !== undefined && v !== '') secretHeaders[h.name] = v;
    }
    const urls = splitTargetUrls(
      {
        baseUrl: input.baseUrl,
        metricsUrl: input.metricsUrl,
        telemetryUrls: input.telemetryUrls?.length ? input.telemetryUrls : undefined,
        metricsEndpoints: input.metricsEndpoints?.length ? input.metricsEndpoints : undefined,
        prometheusUrl: input.prometheusUrl,
      },
      this.urlSecretsOf(prev),
    );
    let next: StoredTarget = {
      id,
      name: input.name,
      ...urls.target,
      dialect: input.dialect,
      defaultModel: input.defaultModel,
      headers: Object.keys(plain).length ? plain : undefined,
      prometheusSelector: input.prometheusUrl !== undefined ? input.prometheusSelector : undefined,
      metricsIntervalMs: input.metricsIntervalMs,
      metricsTimeoutMs: input.metricsTimeoutMs,
      insecureTls: input.insecureTls,
      apiKeyEnc: keep ? prev?.apiKeyEnc : undefined,
    };
    next = this.withUrlSecrets(next, urls.secrets);
    if (!keep) this.memKeys.delete(id);
    this.memHeaders.delete(id);
    if (Object.keys(secretHeaders).length) {
      if (this.secrets.canPersist)
        next.secretHeadersEnc = Object.fromEntries(
          Object.entries(secretHeaders).map(([k, v]) => [k, this.secrets.encrypt(v)]),
        );
      else this.memHeaders.set(id, secretHeaders);
    }
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
    this.memHeaders.delete(id);
    this.memUrls.delete(id);
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
        telemetryUrls: [`${this.simUrl}/gpu-metrics`],
      };
    }
    const t = this.targets.find((x) => x.id === id);
    if (!t) return null;
    const apiKey =
      this.memKeys.get(id) ?? (t.apiKeyEnc ? (this.secrets.decrypt(t.apiKeyEnc) ?? undefined) : undefined);
    const urls = joinTargetUrls(
      {
        baseUrl: t.baseUrl,
        metricsUrl: t.metricsUrl,
        telemetryUrls: t.telemetryUrls,
        metricsEndpoints: t.metricsEndpoints,
        prometheusUrl: t.prometheusUrl,
      },
      this.urlSecretsOf(t),
    );
    return {
      id: t.id,
      name: t.name,
      baseUrl: urls.baseUrl,
      dialect: t.dialect,
      defaultModel: t.defaultModel,
      headers: { ...(t.headers ?? {}), ...this.secretHeadersOf(t) },
      secretHeaderNames: Object.keys(this.secretHeadersOf(t)),
      apiKey,
      metricsUrl: urls.metricsUrl,
      telemetryUrls: urls.telemetryUrls,
      metricsEndpoints: urls.metricsEndpoints,
      prometheusUrl: urls.prometheusUrl,
      prometheusSelector: t.prometheusSelector,
      metricsIntervalMs: t.metricsIntervalMs,
      metricsTimeoutMs: t.metricsTimeoutMs,
      insecureTls: t.insecureTls === true,
    };
  }
}
