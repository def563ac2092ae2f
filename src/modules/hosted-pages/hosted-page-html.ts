/** Server-side HTML building for the hosted pages: escaping, a safe tagged template, money and links. */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => ENTITIES[c]);
}

/** Markup that is already safe to insert (built by `html`, or trusted constants via `trusted`). */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

export type HtmlPart = SafeHtml | string | number | boolean | null | undefined | HtmlPart[];

function renderPart(part: HtmlPart): string {
  if (part === null || part === undefined || part === false || part === true) return '';
  if (Array.isArray(part)) return part.map(renderPart).join('');
  if (part instanceof SafeHtml) return part.value;
  return escapeHtml(part);
}

/** Tagged template: every interpolated value is HTML-escaped unless it is SafeHtml (nested `html`). */
export function html(strings: TemplateStringsArray, ...values: HtmlPart[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += renderPart(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Wraps a constant of this code base (an attribute such as `hidden disabled`) as markup; never use it on input. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** An amount in minor units (cents) as the customer reads it, e.g. `$12.99`. */
export function formatMoney(minor: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** `url` with `params` set in its query string (the merchant's own query is kept). */
export function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [name, value] of Object.entries(params)) u.searchParams.set(name, value);
  return u.toString();
}

/** An http(s) URL for an `href`/`src`, or null for anything else (e.g. `javascript:`). */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  return /^https?:$/.test(new URL(url).protocol) ? url : null;
}
