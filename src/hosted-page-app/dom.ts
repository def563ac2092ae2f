/** The page's elements by id, typed. */

/** The element with this id, or null. */
export function byId(id: string): HTMLElement | null {
  return document.getElementById(id);
}

/** The element with this id, which the page always has (the pay form's summary, button, status line). */
export function required(id: string): HTMLElement {
  const el = byId(id);
  if (!el) throw new Error(`hosted page: no element #${id}`);
  return el;
}

/** The trimmed value of the input or textarea with this id ('' when the page has none). */
export function value(id: string): string {
  const el = byId(id);
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value.trim() : '';
}

/** Whether the checkbox with this id is checked. */
export function checked(id: string): boolean {
  const el = byId(id);
  return el instanceof HTMLInputElement && el.checked;
}

/** Shows and enables (or hides and disables) a fieldset of the form. */
export function toggle(id: string, on: boolean): void {
  const el = byId(id);
  if (!el) return;
  el.hidden = !on;
  if (el instanceof HTMLFieldSetElement) el.disabled = !on;
}

/** The id of a field's element: its API path with dots as dashes (`hsa_fsa_card.number` is `#hsa_fsa_card-number`). */
export function fieldId(field: string | null | undefined): string {
  return String(field ?? '')
    .split('.')
    .join('-');
}
