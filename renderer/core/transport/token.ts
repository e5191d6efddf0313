/**
 * Web mode's access token: it comes in the page URL (`?token=`), is kept in sessionStorage so a
 * reload in the same tab still has it, and is then removed from the visible URL so it does not
 * end up in screenshots, shared links or history entries.
 * @internal exported for its tests
 */
export const TOKEN_KEY = 'tokenscope.token';

export interface TokenEnv {
  href: string;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  replaceUrl: (url: string) => void;
}

export function takeToken(env: TokenEnv): string | null {
  const url = new URL(env.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      env.storage?.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // Storage can be disabled (privacy mode); the token still works for this page load.
    }
    url.searchParams.delete('token');
    const qs = url.searchParams.toString();
    env.replaceUrl(url.pathname + (qs ? `?${qs}` : '') + url.hash);
    return fromUrl;
  }
  try {
    return env.storage?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Keeps a token (typed by the user) for reloads of this tab. */
export function storeToken(env: TokenEnv, token: string): void {
  try {
    env.storage?.setItem(TOKEN_KEY, token);
  } catch {
    // Storage disabled: the token still works until the page is reloaded.
  }
}

export function browserTokenEnv(): TokenEnv {
  let storage: Storage | null = null;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = null;
  }
  return {
    href: window.location.href,
    storage,
    replaceUrl: (u) => window.history.replaceState(window.history.state, '', u),
  };
}

export function socketUrl(loc: { protocol: string; host: string }, token: string | null): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/ws?token=${encodeURIComponent(token ?? '')}`;
}
