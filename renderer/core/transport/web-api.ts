/**
 * Web mode's HTTP API (electron/serve-api.ts), for what is too large for the message socket:
 * imports are uploaded as a streamed request body, exports downloaded as a file. The token goes in
 * an Authorization header, never in a URL.
 */
import type { Result } from '../../../shared/api.ts';
import type { ExportFormat } from '../../../shared/runs-api.ts';
import { errorMessage } from '../../../shared/result.ts';

export type AuthState = 'ok' | 'missing-token' | 'wrong-token' | 'host' | 'unreachable';

type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export interface ImportOutcome {
  keys: string[];
  warnings: string[];
}

export class WebApi {
  constructor(
    private readonly base: string,
    private token: string | null,
    private readonly fetchFn: FetchLike = (u, i) => fetch(u, i),
  ) {}

  setToken(token: string | null): void {
    this.token = token;
  }

  private auth(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  /** Why the socket would be refused, asked over plain HTTP (a browser hides a refused upgrade's status). */
  async session(): Promise<AuthState> {
    try {
      const r = await this.fetchFn(`${this.base}/api/session`, { headers: this.auth(), cache: 'no-store' });
      if (r.status === 204 || r.ok) return 'ok';
      if (r.status === 401) return 'missing-token';
      if (r.status === 403) {
        const text = await r.text().catch(() => '');
        return text.startsWith('Host ') ? 'host' : 'wrong-token';
      }
      return 'unreachable';
    } catch {
      return 'unreachable';
    }
  }

  async importFile(file: Blob, filename: string): Promise<Result<ImportOutcome>> {
    try {
      const r = await this.fetchFn(`${this.base}/api/import?filename=${encodeURIComponent(filename)}`, {
        method: 'POST',
        headers: { ...this.auth(), 'content-type': 'application/octet-stream' },
        body: file,
      });
      return await resultOf<ImportOutcome>(r);
    } catch (e) {
      return failed('network', 'upload', `The upload of ${filename} failed: ${errorMessage(e)}`);
    }
  }

  async exportFile(key: string, format: ExportFormat): Promise<Result<{ filename: string; blob: Blob }>> {
    return this.fetchFile(`/api/export?key=${encodeURIComponent(key)}&format=${encodeURIComponent(format)}`);
  }

  /** The HTML report of runs (several: with their comparison), as the core makes it. */
  async exportReport(
    keys: readonly string[],
    definitions?: string,
  ): Promise<Result<{ filename: string; blob: Blob }>> {
    const q = keys.map((k) => `key=${encodeURIComponent(k)}`);
    if (definitions) q.push(`definitions=${encodeURIComponent(definitions)}`);
    return this.fetchFile(`/api/report?${q.join('&')}`);
  }

  private async fetchFile(route: string): Promise<Result<{ filename: string; blob: Blob }>> {
    try {
      const r = await this.fetchFn(`${this.base}${route}`, { headers: this.auth() });
      if (!r.ok) return await resultOf<never>(r);
      const blob = await r.blob();
      return {
        ok: true,
        value: { filename: filenameOf(r.headers.get('content-disposition')) ?? 'export', blob },
      };
    } catch (e) {
      return failed('network', 'download', `The download failed: ${errorMessage(e)}`);
    }
  }
}

function failed(kind: string, code: string, message: string): Result<never> {
  return { ok: false, error: { kind, code, message } } as Result<never>;
}

async function resultOf<T>(r: Response): Promise<Result<T>> {
  const text = await r.text();
  try {
    const j = JSON.parse(text) as Result<T>;
    if (j && typeof j === 'object' && typeof j.ok === 'boolean') return j;
  } catch {
    // not our JSON: say what came
  }
  return failed('http', String(r.status), `HTTP ${r.status}: ${text.slice(0, 200) || r.statusText}`);
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first). */
function filenameOf(cd: string | null): string | null {
  if (!cd) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename="([^"]*)"/i.exec(cd);
  return plain ? plain[1]! : null;
}

/** Makes the browser save a blob as a file. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
