/**
 * What in a page's HTML would run inline, which a CSP without 'unsafe-inline' must then block: a
 * `<style>` element, a `style=` or `on…=` attribute, a `<script>` with content or without a `src`
 * of our origin. A JSON data block (`<script type="application/json">`) runs nothing and is left out.
 */
export function inlineCode(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<style\b[^>]*>/gi)) found.push(m[0]);
  for (const m of html.matchAll(/<[a-z][^>]*\s(?:style|on[a-z]+)\s*=[^>]*>/gi)) found.push(m[0]);
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\btype="application\/json"/.test(m[1])) continue;
    if (!/\bsrc="\/[^"]+"/.test(m[1]) || m[2].trim() !== '') found.push(m[0]);
  }
  return found;
}
