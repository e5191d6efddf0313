/**
 * The renderer's one door to the core. In Electron the preload bridge (`window.tokenscope`)
 * carries the contract over IPC; in a browser (web mode, `tokenscope serve`) a WebSocket does,
 * with the token from the page URL. Everything else in the UI uses `api` and `onEvent` and does
 * not know which.
 */
import type { ApiClient, ApiEvent, ApiEvents, ApiMethod } from '../../shared/api.ts';
import { METHOD_NAMES } from '../../shared/api-names.ts';
import { ElectronTransport, type PreloadBridge } from './transport/electron-transport.ts';
import { browserTokenEnv, socketUrl, storeToken, takeToken } from './transport/token.ts';
import type { Transport } from './transport/types.ts';
import { WebApi } from './transport/web-api.ts';
import { WsTransport } from './transport/ws-transport.ts';

declare global {
  interface Window {
    tokenscope?: PreloadBridge;
  }
}

let transport: Transport | null = null;
let web: WebApi | null = null;

function createTransport(): Transport {
  if (typeof window !== 'undefined' && window.tokenscope) return new ElectronTransport(window.tokenscope);
  const token = takeToken(browserTokenEnv());
  web = new WebApi(window.location.origin, token);
  const api = web;
  return new WsTransport({ url: socketUrl(window.location, token), checkAuth: () => api.session() });
}

/** Web mode's HTTP API (imports and exports too large for the socket); null in Electron. */
export function getWebApi(): WebApi | null {
  getTransport();
  return web;
}

/** Web mode: the token the user typed, for this tab (sessionStorage) and the live link. */
export function applyToken(token: string): void {
  const t = token.trim();
  if (!t) return;
  storeToken(browserTokenEnv(), t);
  web?.setToken(t);
  getTransport().setToken?.(t);
}

/** The transport, created on first use (so importing this module opens nothing). */
export function getTransport(): Transport {
  transport ??= createTransport();
  return transport;
}

/** Tests and storybook-like harnesses plug in their own. @internal exported for its tests */
export function setTransport(t: Transport | null, webApi: WebApi | null = null): void {
  transport = t;
  web = webApi;
}

function buildClient(): ApiClient {
  const client: Record<string, unknown> = {};
  for (const m of METHOD_NAMES) client[m] = (...args: unknown[]) => getTransport().call(m as ApiMethod, args);
  return client as unknown as ApiClient;
}

/** Typed client: the same names and Result values as shared/api.ts's handlers. */
export const api: ApiClient = buildClient();

export function onEvent<E extends ApiEvent>(event: E, cb: (payload: ApiEvents[E]) => void): () => void {
  return getTransport().on(event, cb);
}

/** Call once every subscription is in place; the core then sends the events it queued. */
export function markReady(): void {
  getTransport().ready();
}
