/**
 * Errors on the pay form: each next to the field it names (`error.param`, `details[].field`, the
 * ids of hosted-page.ts's markup) or in the `role="alert"` summary, with a list of links to the
 * fields to fix, "Try another card" after a decline, and the way back to the store. Text only
 * (`textContent`): nothing from the server is ever written as markup.
 */
import { byId, fieldId } from './dom.js';

/** The API's error body (`error`). */
export interface ApiError {
  code?: string;
  message?: string;
  param?: string | null;
  details?: unknown;
}

/** One field's error: the field's API path, the message, and whether the message follows the field's label ("Card number is required"; default true). */
export type ErrorEntry = [field: string | null | undefined, message: string, composed?: boolean];

/** The message as a sentence: after the field's label when it reads on from it ("is required"), else capitalised. */
function sentence(label: string | null, message: string): string {
  if (label && /^(is|are|must|cannot|needs?|should)\b/.test(message)) return `${label} ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** `details` of a validation error: `[{field, message}]`. */
function fieldDetails(details: unknown): { field?: string; message: string }[] | null {
  return Array.isArray(details) && details.length ? (details as { field?: string; message: string }[]) : null;
}

export class FormErrors {
  /**
   * @param onRetry what "Try another card" does once the errors are cleared: empty `fieldset`'s
   *   card and put the cursor in its number.
   */
  constructor(
    private readonly form: HTMLFormElement,
    private readonly summary: HTMLElement,
    private readonly onRetry: (fieldset: HTMLElement) => void,
  ) {}

  /** Removes every message and mark. */
  clear(): void {
    this.summary.textContent = '';
    for (const el of this.form.querySelectorAll('[aria-invalid="true"]')) el.removeAttribute('aria-invalid');
    for (const el of this.form.querySelectorAll('[data-invalid]')) el.removeAttribute('data-invalid');
    for (const el of this.form.querySelectorAll('.field-error')) el.textContent = '';
  }

  /** Shows one message next to the field it names; what takes the focus for it, or null when that field is not on the page. */
  private showField(field: string | null | undefined, message: string, composed: boolean): HTMLElement | null {
    const id = fieldId(field);
    const slot = id ? byId(`${id}-error`) : null;
    if (!slot || slot.closest('[hidden]')) return null;
    const target = byId(id);
    slot.textContent = composed ? sentence(target?.getAttribute('data-label') ?? null, message) : message;
    if (target && target.tagName !== 'FIELDSET') target.setAttribute('aria-invalid', 'true');
    else if (target) target.setAttribute('data-invalid', ''); // a whole card: its border turns red
    return target && target.tagName !== 'FIELDSET' ? target : slot;
  }

  /** The summary's list of what to fix, each a link to its field (never "the highlighted field" alone). */
  private addFixList(placed: { id: string; text: string }[]): void {
    const list = document.createElement('ul');
    for (const p of placed) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `#${p.id}`;
      a.textContent = p.text;
      a.addEventListener('click', (e) => {
        e.preventDefault();
        const el = byId(p.id);
        const focusable = el && el.tagName === 'FIELDSET' ? el.querySelector('input') : el;
        focusable?.focus();
      });
      li.appendChild(a);
      list.appendChild(li);
    }
    this.summary.appendChild(list);
  }

  /** After a decline: a button that empties the declined card (`slot`, else the visible card) for another. */
  private addTryAnotherCard(slot: string): void {
    const named = byId(slot);
    const fieldset =
      named && !named.hidden ? named : this.form.querySelector<HTMLElement>('fieldset[id$="card"]:not([hidden])');
    if (!fieldset) return;
    const p = document.createElement('p');
    const retry = document.createElement('button');
    retry.type = 'button';
    retry.className = 'retry';
    retry.id = 'try-another-card';
    retry.textContent = 'Try another card';
    retry.addEventListener('click', () => {
      this.clear();
      this.onRetry(fieldset);
    });
    p.appendChild(retry);
    this.summary.appendChild(p);
  }

  /** A paragraph of the summary, and (an http(s) `link`) the way back to the store. */
  private addSummary(text: string, link?: string | null): void {
    if (text) {
      const p = document.createElement('p');
      p.textContent = text;
      this.summary.appendChild(p);
    }
    if (link && /^https?:/i.test(link)) {
      const back = document.createElement('p');
      const a = document.createElement('a');
      a.href = link;
      a.textContent = 'Cancel and return to the store';
      back.appendChild(a);
      this.summary.appendChild(back);
    }
  }

  /**
   * Shows `entries` next to their fields (those not on the page in the summary), `general` in the
   * summary with `link` back to the store, and "Try another card" for `retrySlot` when given;
   * the focus goes to the first field named, else to the summary.
   */
  show(entries: ErrorEntry[], general?: string, link?: string | null, retrySlot?: string): void {
    let first: HTMLElement | null = null;
    const unplaced: string[] = [];
    const placed: { id: string; text: string }[] = [];
    for (const [field, message, composed] of entries) {
      const at = this.showField(field, message, composed !== false);
      if (at) {
        first ??= at;
        const id = fieldId(field);
        const slot = byId(`${id}-error`);
        placed.push({
          id: byId(id) ? id : `${id}-error`,
          text: slot ? (slot.textContent ?? '') : sentence(null, message),
        });
      } else unplaced.push(sentence(null, message));
    }
    if (general) this.addSummary(general, retrySlot === undefined ? link : null);
    if (retrySlot !== undefined) {
      this.addTryAnotherCard(retrySlot);
      if (link) this.addSummary('', link);
    }
    for (const m of unplaced) this.addSummary(m);
    if (!general && placed.length) {
      this.addSummary(placed.length > 1 ? `Please fix these ${placed.length} fields:` : 'Please fix this field:');
      this.addFixList(placed);
    }
    const focus = first && !link ? first : this.summary;
    if (focus === this.summary) this.summary.setAttribute('tabindex', '-1');
    focus.focus();
  }

  /** Shows the API's error (`redirectUrl`: the way back to the store after a decline). */
  showServer(error: ApiError | undefined, redirectUrl?: string | null): void {
    const err = error ?? { message: 'The payment could not be completed. Please try again.' };
    const details = fieldDetails(err.details);
    if (details) {
      this.show(details.map((d): ErrorEntry => [d.field, d.message]));
    } else if (err.code === 'card_declined') {
      this.showField(err.param, err.message ?? '', false);
      this.show([], err.message, redirectUrl, String(err.param || 'card').split('.')[0]);
    } else if (err.param && byId(`${fieldId(err.param)}-error`)) {
      this.show([[err.param, err.message ?? '', false]]);
    } else {
      this.show([], err.message || 'The payment could not be completed.');
    }
  }
}
