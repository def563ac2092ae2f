/** What the dashboard's list panels share: a copy button for a URL, and a confirmed mutation of one of their objects. */
import { $, copy, h } from '../dom.js';
import { showError } from '../session.js';

/** A copy button for `text` (a link's URL), its result on the activity's status line. */
export function copyButton(text: string, label: string): HTMLElement {
  return h(
    'button',
    { type: 'button', 'aria-label': label, onclick: () => void copy(text, $('connection')) },
    'Copy URL',
  );
}

/** A confirmed mutation of an object on the dashboard (`run`: its typed document sent), then `after` redraws its panel. */
export async function act(question: string, run: () => Promise<unknown>, after: () => Promise<void>): Promise<void> {
  if (!window.confirm(question)) return;
  try {
    await run();
    await after();
  } catch (err) {
    showError(err);
  }
}
