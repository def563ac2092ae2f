/** What the dashboard's list panels share: a copy button for a URL, and a confirmed mutation of one of their objects. */
import { $, copy, h } from '../dom.js';
import { queryText, showError } from '../session.js';

/** A copy button for `text` (a link's URL), its result on the activity's status line. */
export function copyButton(text: string, label: string): HTMLElement {
  return h(
    'button',
    { type: 'button', 'aria-label': label, onclick: () => void copy(text, $('connection')) },
    'Copy URL',
  );
}

/** A confirmed mutation `name(input: {id, ...extra})` of an object on the dashboard, then `after` redraws its panel. */
export async function act(
  question: string,
  name: string,
  id: string,
  select: string,
  after: () => Promise<void>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (!window.confirm(question)) return;
  try {
    await queryText(
      `mutation($input: ${name[0].toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { ${select} userErrors { message } } }`,
      { input: { id, ...extra } },
    );
    await after();
  } catch (err) {
    showError(err);
  }
}
