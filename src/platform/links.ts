/** Base of the links the service hands out (`checkout_url`, `receipt_url`, payment link `url`): PUBLIC_URL. */
let base = 'http://localhost:4000';

/** Set once at start-up from the configuration. */
export function setPublicUrl(url: string): void {
  base = url.replace(/\/$/, '');
}

/** An absolute link to `path` on this service. */
export function publicLink(path: string): string {
  return `${base}${path}`;
}
