import { IIAS_CATEGORIES, type IiasCategory } from '../products/product-eligibility.js';
import type { CheckoutAmounts, HealthcareBreakdown } from '../shared/amounts.js';
import type { CheckoutLineItem } from './checkout-session.entity.js';

/**
 * A priced line: unit price in cents, quantity, whether an HSA/FSA card may pay for it and the
 * IIAS category its eligible amount counts under (missing on an eligible line: `otc`).
 */
export interface PricedLine {
  price: number;
  quantity: number;
  hsaFsaEligible: boolean;
  iiasCategory?: IiasCategory | null;
}

/**
 * Shares `amount` between the IIAS categories in proportion to `weights`, in integer cents that add
 * up to `amount` exactly: each category's share rounded down (as the tax share is: never more than
 * its exact value), the cents left over going one each to the largest fractions (a tie to the
 * category listed first: rx, vision, clinic, dental, otc).
 */
export function shareByCategory(amount: number, weights: HealthcareBreakdown): HealthcareBreakdown {
  const out: HealthcareBreakdown = { rx: 0, vision: 0, clinic: 0, dental: 0, otc: 0 };
  const whole = IIAS_CATEGORIES.reduce((sum, c) => sum + weights[c], 0);
  if (amount <= 0 || whole <= 0) return out;
  const fractions = IIAS_CATEGORIES.map((c) => {
    out[c] = Math.floor((amount * weights[c]) / whole);
    return { c, rest: (amount * weights[c]) % whole };
  });
  let left = amount - IIAS_CATEGORIES.reduce((sum, c) => sum + out[c], 0);
  for (const { c } of fractions.sort((a, b) => b.rest - a.rest)) {
    if (left-- <= 0) break;
    out[c]++;
  }
  return out;
}

/** Checkout line items as priced lines. */
export function pricedLines(items: readonly CheckoutLineItem[]): PricedLine[] {
  return items.map((l) => ({
    price: l.price,
    quantity: l.quantity,
    hsaFsaEligible: l.hsa_fsa_eligible,
    iiasCategory: l.iias_category ?? null,
  }));
}

/** A checkout's IIAS breakdown (a session stored before breakdowns existed: all of it OTC). */
export function healthcareOf(amounts: CheckoutAmounts): HealthcareBreakdown {
  return amounts.healthcare ?? shareByCategory(amounts.hsa_amount, { rx: 0, vision: 0, clinic: 0, dental: 0, otc: 1 });
}

/** The eligible subtotal of each IIAS category. */
function eligibleByCategory(lines: PricedLine[]): HealthcareBreakdown {
  const out: HealthcareBreakdown = { rx: 0, vision: 0, clinic: 0, dental: 0, otc: 0 };
  for (const l of lines) if (l.hsaFsaEligible) out[l.iiasCategory ?? 'otc'] += l.price * l.quantity;
  return out;
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
 * `hsa_amount + regular_amount = total = subtotal + shipping + tax - discount`. `healthcare`
 * shares `hsa_amount` between the IIAS categories in proportion to their eligible subtotals
 * (`shareByCategory`), so it follows the same discount and tax shares and adds up to it exactly.
 */
export function splitAmounts(
  lines: PricedLine[],
  extra: { shipping: number; tax: number; discount: number },
): Required<CheckoutAmounts> {
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
  return {
    subtotal,
    hsa_amount: hsa,
    regular_amount: total - hsa,
    shipping: extra.shipping,
    tax: extra.tax,
    discount: extra.discount,
    total,
    healthcare: shareByCategory(hsa, eligibleByCategory(lines)),
  };
}

/** `eligible` when every line is, `regular` when none is, otherwise `split`. */
export function checkoutType(lines: PricedLine[]): 'eligible' | 'split' | 'regular' {
  const eligible = lines.filter((l) => l.hsaFsaEligible).length;
  if (eligible === 0) return 'regular';
  return eligible === lines.length ? 'eligible' : 'split';
}
