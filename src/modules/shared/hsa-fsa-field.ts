/**
 * The one place that names the HSA/FSA card's field of a pay request, for the server and the
 * hosted pages' browser bundle alike (src/hosted-page-app imports this file: it stays free of Node
 * and of any other import).
 *
 * - `hsa_fsa_card` is the payment engine's name, a hosted page's (its inputs, its Adyen Web slot)
 *   and that of the pages' own pay routes (test mode's `/checkout/:id/pay`, a payment link's
 *   `/pay/:id/pay`, the test helpers).
 * - `hsa_fsa` is the contract's name on `POST /api/v2/checkout/{id}/payments`, which a live
 *   checkout page pays through: its body and the `param` of its errors say `hsa_fsa`.
 */

/** The HSA/FSA card's field on the engine, on the hosted pages and on their own pay routes. */
export const HSA_FSA_CARD_FIELD = 'hsa_fsa_card' as const;

/** The HSA/FSA card's field on the contract's `POST /api/v2/checkout/{id}/payments`. */
export const MERCHANT_PAGE_HSA_FSA_FIELD = 'hsa_fsa' as const;

/** A name of the HSA/FSA card's field. */
export type HsaFsaField = typeof HSA_FSA_CARD_FIELD | typeof MERCHANT_PAGE_HSA_FSA_FIELD;

const NAMED = /^hsa_fsa(?:_card)?\b/;

/** The name of the HSA/FSA card's field that `path` starts with, or null when it names another field. */
export function hsaFsaFieldOf(path: string): HsaFsaField | null {
  return (NAMED.exec(path)?.[0] as HsaFsaField | undefined) ?? null;
}

/**
 * `path` (a body field, an error `param`, a `details[].field`, or a message that starts with one,
 * such as `hsa_fsa.payment_method_data is required`) with the HSA/FSA card's field named `to`;
 * any other path unchanged.
 */
export function nameHsaFsaField(path: string, to: HsaFsaField): string {
  return path.replace(NAMED, to);
}
