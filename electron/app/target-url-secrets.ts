/**
 * The secret parts of a target's URLs (base, metrics, telemetry, Prometheus): split off before
 * the target is stored or shown, kept like the API key (SecretBox output when it can persist,
 * else memory only), joined back for the engine. Each part remembers the origin it belongs to, so
 * a credential never follows a URL to another host, even when the list of URLs is reordered.
 */
import { z } from 'zod';
import { joinUrlSecrets, splitUrlSecrets, type UrlSecretParts } from '../../shared/url-credentials.ts';
import type { SecretBox } from './secrets.ts';
import { originOf } from '../../shared/origin.ts';
import type { TargetSettings } from '../../shared/target.ts';

/** The URL fields of a target. */
export type TargetUrls = Pick<
  TargetSettings,
  'baseUrl' | 'metricsUrl' | 'telemetryUrls' | 'metricsEndpoints' | 'prometheusUrl'
>;

const Parts = z.object({
  origin: z.string(),
  username: z.string().optional(),
  password: z.string().optional(),
  params: z.array(z.tuple([z.string(), z.string()])).optional(),
});
const SecretMap = z.record(z.string(), Parts);
/** Per URL field ('baseUrl', 'telemetryUrls.0', …): its secret parts and their origin. */
export type UrlSecretMap = z.infer<typeof SecretMap>;

/** Applies `f` to every URL field of `t` (by key), a new object with the results. */
function mapUrls<T extends TargetUrls>(t: T, f: (key: string, url: string) => string): T {
  const out: T = { ...t, baseUrl: f('baseUrl', t.baseUrl) };
  if (t.metricsUrl !== undefined) out.metricsUrl = f('metricsUrl', t.metricsUrl);
  if (t.prometheusUrl !== undefined) out.prometheusUrl = f('prometheusUrl', t.prometheusUrl);
  if (t.telemetryUrls !== undefined)
    out.telemetryUrls = t.telemetryUrls.map((u, i) => f(`telemetryUrls.${i}`, u));
  if (t.metricsEndpoints !== undefined)
    out.metricsEndpoints = t.metricsEndpoints.map((e, i) => ({
      ...e,
      url: f(`metricsEndpoints.${i}`, e.url),
    }));
  return out;
}

/** The stored parts of a field that belong to `url`'s origin. */
function partsFor(map: UrlSecretMap, key: string, url: string): UrlSecretParts | null {
  const p = map[key];
  return p && p.origin === originOf(url) ? p : null;
}

/**
 * `t` with every URL's secrets replaced by `***`, and those secrets. `***` placeholders in `t` (a
 * URL edited in its shown form) are first filled from `prev`, for the same field and origin.
 */
export function splitTargetUrls<T extends TargetUrls>(
  t: T,
  prev: UrlSecretMap = {},
): { target: T; secrets: UrlSecretMap } {
  const secrets: UrlSecretMap = {};
  const target = mapUrls(t, (key, u) => {
    const { url, parts } = splitUrlSecrets(joinUrlSecrets(u, partsFor(prev, key, u)));
    if (parts) secrets[key] = { origin: originOf(u), ...parts };
    return url;
  });
  return { target, secrets };
}

/** `t` with its URLs' secrets put back (the engine's view). */
export function joinTargetUrls<T extends TargetUrls>(t: T, secrets: UrlSecretMap): T {
  return mapUrls(t, (key, u) => joinUrlSecrets(u, partsFor(secrets, key, u)));
}

/** The map as SecretBox output (one value for the whole map). */
export function sealUrlSecrets(box: SecretBox, map: UrlSecretMap): string {
  return box.encrypt(JSON.stringify(map));
}

/** The map from SecretBox output ({} when it cannot be decrypted or read). */
export function openUrlSecrets(box: SecretBox, sealed: string | undefined): UrlSecretMap {
  if (!sealed) return {};
  const plain = box.decrypt(sealed);
  if (plain === null) return {};
  try {
    const r = SecretMap.safeParse(JSON.parse(plain));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}
