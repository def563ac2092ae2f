/**
 * A live page's access token (`?token=`) outside the address bar. The capability there would reach
 * Adyen with Adyen Web's requests (their Referer, its analytics' referrer), so the pay form takes
 * it out before Adyen Web loads (`hideToken`); the page's calls have it in their configuration.
 * A reload then asks for the page without a token and is answered "not found", whose script
 * (`restoreToken`, token-restore.ts) puts back the token this tab kept for that page.
 */

const storageKey = (pathname: string): string => `page-token:${pathname}`;

/** Takes `?token=` out of the address bar of the page opened at `pageUrl`, keeping it in this tab's sessionStorage for a reload. */
export function hideToken(pageUrl: URL): void {
  const token = pageUrl.searchParams.get('token');
  if (!token) return;
  try {
    window.sessionStorage.setItem(storageKey(pageUrl.pathname), token);
  } catch {
    // storage off: a reload needs the link again
  }
  const shown = new URL(pageUrl.href);
  shown.searchParams.delete('token');
  window.history.replaceState(null, '', shown.toString());
}

/** On a "not found" page: reopens it with the token this tab kept for its address (once: an address with a token is never rewritten). */
export function restoreToken(): void {
  try {
    const url = new URL(window.location.href);
    const token = window.sessionStorage.getItem(storageKey(url.pathname));
    if (!token || url.searchParams.has('token')) return;
    url.searchParams.set('token', token);
    window.location.replace(url.toString());
  } catch {
    // no storage: the page stays not found
  }
}
