/** Text rules shared by every surface: cut by code points, never inside a surrogate pair. */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` holds a UTF-16 surrogate without its partner (valid JSON, but not Unicode text: PostgreSQL refuses it). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** The first `max` code points of `text` (a surrogate pair counts as one and is never split). */
export function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  let points = 0;
  for (const ch of text) {
    if (points === max) break;
    units += ch.length;
    points++;
  }
  return text.slice(0, units);
}

/** `text` cut to `max` code points with an ellipsis as the last one when it was longer. */
export function ellipsize(text: string, max: number): string {
  const cut = truncateCodePoints(text, max);
  return cut.length === text.length ? text : `${truncateCodePoints(cut, max - 1)}…`;
}
