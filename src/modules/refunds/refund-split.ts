/** What one payment captured and what is already refunded (or being refunded) from it. */
export interface RefundablePayment {
  captured: number;
  refunded: number;
}

/**
 * Splits a refund of `amount` cents between the HSA/FSA and the regular payment in proportion
 * to what each captured, in integer cents. The HSA/FSA share is chosen so that the cumulative
 * HSA/FSA refund tracks `floor(H × C / T)` (H captured by the HSA/FSA card, T the order total,
 * C everything refunded so far including this refund); the regular card takes the rest.
 * Each share is then clamped to what its payment still has, so the sum of refunds of a payment
 * never exceeds its capture, and a refund of the whole remainder returns each payment exactly.
 * The caller has checked that `amount` ≤ the remaining total.
 */
export function splitRefund(amount: number, hsa: RefundablePayment, regular: RefundablePayment): { hsa: number; regular: number } {
  const total = hsa.captured + regular.captured;
  const hsaLeft = hsa.captured - hsa.refunded;
  const regularLeft = regular.captured - regular.refunded;
  if (amount > hsaLeft + regularLeft) throw new RangeError(`refund of ${amount} exceeds the remaining ${hsaLeft + regularLeft}`);
  const cumulative = hsa.refunded + regular.refunded + amount;
  const target = total > 0 ? Math.floor((hsa.captured * cumulative) / total) : 0;
  let hsaShare = Math.min(Math.max(target - hsa.refunded, 0), hsaLeft, amount);
  let regularShare = amount - hsaShare;
  if (regularShare > regularLeft) {
    hsaShare += regularShare - regularLeft;
    regularShare = regularLeft;
  }
  return { hsa: hsaShare, regular: regularShare };
}
