/**
 * Where API keys live. In Electron they are encrypted with safeStorage (the OS keychain) before
 * they touch disk; where no OS encryption is available (web mode, CI) they stay in memory only
 * and are never written. Keys never go to the renderer, run files, exports or logs.
 */
export interface SecretBox {
  /** True when encrypt() output may be written to disk. */
  readonly canPersist: boolean;
  encrypt(plain: string): string;
  decrypt(stored: string): string | null;
}

/** Memory-only: "encrypt" returns an opaque handle into a private map; nothing is persistable. */
export class MemorySecretBox implements SecretBox {
  readonly canPersist = false;
  private readonly map = new Map<string, string>();
  private n = 0;
  encrypt(plain: string): string {
    const handle = `mem:${++this.n}`;
    this.map.set(handle, plain);
    return handle;
  }
  decrypt(stored: string): string | null {
    return this.map.get(stored) ?? null;
  }
}
