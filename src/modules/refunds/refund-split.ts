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
export function splitRefund(
  amount: number,
  hsa: RefundablePayment,
  regular: RefundablePayment,
): { hsa: number; regular: number } {
  const total = hsa.captured + regular.captured;
  const hsaLeft = hsa.captured - hsa.refunded;
  const regularLeft = regular.captured - regular.refunded;
  if (amount > hsaLeft + regularLeft)
    throw new RangeError(`refund of ${amount} exceeds the remaining ${hsaLeft + regularLeft}`);
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

/** A line of the order as a line refund reads it: what it cost and whether the HSA/FSA card could pay it. */
export interface PaidLine {
  id: string;
  price: number;
  quantity: number;
  hsa_fsa_eligible: boolean;
}

/**
 * Splits a line refund: each line's amount goes back to the card that paid that line. A line that
 * is not HSA/FSA eligible was paid by the regular card and returns to it whole. An eligible line
 * was paid by the HSA/FSA card, except the part of the eligible lines a partial authorisation (or
 * one regular card paying everything) moved to the regular card: the HSA/FSA card takes its share
 * of the eligible lines, `H / E` (H its capture, E the eligible lines' total), rounded down. Each
 * share is then clamped to what its payment still has, the other card taking the excess.
 */
export function splitLineRefund(
  lines: readonly { line_item_id: string; amount: number }[],
  paid: readonly PaidLine[],
  hsa: RefundablePayment,
  regular: RefundablePayment,
): { hsa: number; regular: number } {
  const byId = new Map(paid.map((l) => [l.id, l]));
  const eligibleTotal = paid.filter((l) => l.hsa_fsa_eligible).reduce((s, l) => s + l.price * l.quantity, 0);
  const amount = lines.reduce((s, l) => s + l.amount, 0);
  const eligibleRefund = lines
    .filter((l) => byId.get(l.line_item_id)?.hsa_fsa_eligible)
    .reduce((s, l) => s + l.amount, 0);
  const target =
    eligibleTotal > 0 ? Math.floor((eligibleRefund * Math.min(hsa.captured, eligibleTotal)) / eligibleTotal) : 0;
  const hsaLeft = hsa.captured - hsa.refunded;
  const regularLeft = regular.captured - regular.refunded;
  if (amount > hsaLeft + regularLeft)
    throw new RangeError(`refund of ${amount} exceeds the remaining ${hsaLeft + regularLeft}`);
  let hsaShare = Math.min(target, hsaLeft);
  let regularShare = amount - hsaShare;
  if (regularShare > regularLeft) {
    hsaShare += regularShare - regularLeft;
    regularShare = regularLeft;
  }
  return { hsa: hsaShare, regular: regularShare };
}
