/** Options the commands that call the service's API share (`listen`, `trigger`). */

/** The service's address (`--api-url`, default the local `npm start`). */
export const DEFAULT_API_URL = 'http://localhost:4000';

/** Refuses anything but a test key: these commands act in test mode only. */
export function requireTestKey(command: string, key: string | undefined, usage: string): string {
  if (!key) throw new Error(`${command}: --api-key is required\nusage:\n  ${usage}`);
  if (key.startsWith('glm_live_'))
    throw new Error(`${command} works in test mode only: use the merchant's glm_test_ key, not a live key`);
  if (!key.startsWith('glm_test_')) throw new Error(`${command}: --api-key must be a glm_test_ key`);
  return key;
}

/** The service's base URL without a trailing slash; refused unless http(s). */
export function apiBase(url: string | undefined): string {
  const base = (url ?? DEFAULT_API_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(base)) throw new Error(`--api-url must be an http(s) URL, got ${base}`);
  return base;
}
