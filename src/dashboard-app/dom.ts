/** Small DOM helpers shared by the console's pages. */

export type Attrs = Record<string, string | boolean | undefined | ((e: Event) => void)>;

/** Builds an element; text is always set as text (never parsed as HTML). */
export function h(tag: string, attrs: Attrs = {}, ...children: (Node | string | null | undefined)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else el.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) el.append(child);
  return el;
}

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
export const money = (cents: number, currency = 'usd') =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
export const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
export const lower = (v: string) => v.toLowerCase();

/** A table (in its scrolling wrapper) with a caption, column headers and rows. */
export function table(caption: string, columns: string[], rows: HTMLElement[], attrs: Attrs = {}): HTMLElement {
  return h(
    'div',
    // Focusable and named: a wide table scrolls sideways in its wrapper, which keyboard users must reach.
    { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
    h(
      'table',
      attrs,
      h('caption', { class: 'sr-only' }, caption),
      h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, ...rows),
    ),
  );
}

/** A labelled form field: the label, then the control (its id ties them). */
export function field(label: string, control: HTMLElement, help?: string): HTMLElement {
  const id = control.id;
  if (help) control.setAttribute('aria-describedby', `${id}-help`);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    control,
    help ? h('p', { id: `${id}-help`, class: 'help' }, help) : null,
  );
}

/** A secret shown once: read-only text and a copy button; `label` names it for the ear. */
export function shownOnce(id: string, label: string, value: string): HTMLElement {
  const input = h('input', {
    id,
    type: 'text',
    readonly: true,
    value,
    spellcheck: 'false',
    'aria-describedby': `${id}-once`,
  }) as HTMLInputElement;
  const status = h('span', { role: 'status', class: 'help' });
  return h(
    'div',
    { class: 'once' },
    h('label', { for: id }, label),
    h(
      'div',
      { class: 'copy-row' },
      input,
      h(
        'button',
        { type: 'button', onclick: () => void copy(value, status), 'aria-label': `Copy ${label.toLowerCase()}` },
        'Copy',
      ),
    ),
    h('p', { id: `${id}-once`, class: 'help' }, 'Shown this once: store it now.'),
    status,
  );
}

/** Copies to the clipboard (falls back to selecting the text when the clipboard is refused). */
export async function copy(value: string, status: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    status.textContent = 'Copied.';
  } catch {
    status.textContent = 'Copy refused by the browser: select the text and copy it.';
  }
}

/**
 * Replaces `body`'s rows with `rows`, keeping keyboard focus where it was: a live update redraws
 * the table, and the control focused in a row (found again by the row's `key` attribute) is
 * focused in its new row, so a keyboard user is not thrown back to the top of the page.
 */
export function replaceRows(body: Element, key: string, rows: HTMLElement[]): void {
  const focused = document.activeElement;
  const row = focused && body.contains(focused) ? focused.closest(`[${key}]`) : null;
  const id = row?.getAttribute(key);
  body.replaceChildren(...rows);
  if (id == null) return;
  const again = [...body.querySelectorAll<HTMLElement>(`[${key}]`)].find((r) => r.getAttribute(key) === id);
  again?.querySelector<HTMLElement>('button, a[href], input, select, textarea')?.focus();
}
