import type { SplitAmounts } from '../shared/amounts.js';

/** A priced line: unit price in cents, quantity, and whether an HSA/FSA card may pay for it. */
export interface PricedLine {
  price: number;
  quantity: number;
  hsaFsaEligible: boolean;
}

/**
 * Splits a checkout between the HSA/FSA card and the regular card, in integer cents:
 *
 * - the eligible subtotal is the sum of the eligible lines;
 * - the discount is shared pro rata to the subtotals, the eligible share rounded UP;
 * - the tax is shared pro rata to the discounted subtotals, the eligible share rounded DOWN;
 * - shipping is never eligible and goes to the regular card.
 *
 * So `hsa_amount` never exceeds the exact eligible value, and
 * `hsa_amount + regular_amount = total = subtotal + shipping + tax - discount`.
 */
export function splitAmounts(lines: PricedLine[], extra: { shipping: number; tax: number; discount: number }): SplitAmounts {
  const subtotal = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const eligible = lines.filter((l) => l.hsaFsaEligible).reduce((sum, l) => sum + l.price * l.quantity, 0);
  const total = subtotal + extra.shipping + extra.tax - extra.discount;
  let hsa = 0;
  if (eligible > 0 && subtotal > 0) {
    const eligibleDiscount = Math.ceil((extra.discount * eligible) / subtotal);
    const discounted = subtotal - extra.discount;
    const eligibleDiscounted = eligible - eligibleDiscount;
    const eligibleTax = discounted > 0 ? Math.floor((extra.tax * Math.max(eligibleDiscounted, 0)) / discounted) : 0;
    hsa = Math.max(0, Math.min(eligibleDiscounted + eligibleTax, total));
  }
  return { subtotal, hsa_amount: hsa, regular_amount: total - hsa, shipping: extra.shipping, tax: extra.tax, discount: extra.discount, total };
}

/** `eligible` when every line is, `regular` when none is, otherwise `split`. */
export function checkoutType(lines: PricedLine[]): 'eligible' | 'split' | 'regular' {
  const eligible = lines.filter((l) => l.hsaFsaEligible).length;
  if (eligible === 0) return 'regular';
  return eligible === lines.length ? 'eligible' : 'split';
}
