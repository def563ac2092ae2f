import { z } from 'zod';

/** Luhn (mod 10) check of a card number. */
export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Card brand from the number's prefix. */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'unknown';
}

/**
 * The contract's card object. Only brand, last4, type and a processor token are ever kept:
 * the number and cvc live in memory for the length of one call.
 */
export const cardSchema = z
  .object({
    number: z
      .string()
      .transform((n) => n.replace(/[\s-]/g, ''))
      .refine((n) => /^\d{12,19}$/.test(n), 'must be 12 to 19 digits')
      .refine((n) => luhnValid(n), 'is not a valid card number (Luhn check failed)'),
    exp_month: z.number().int().min(1, 'must be 1 to 12').max(12, 'must be 1 to 12'),
    exp_year: z.number().int().min(2000).max(2100),
    cvc: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
  })
  .strict()
  .meta({ id: 'Card' });

export type CardInput = z.output<typeof cardSchema>;

/** True when the card's expiry month is not yet over at `now`. */
export function notExpired(card: Pick<CardInput, 'exp_month' | 'exp_year'>, now: Date): boolean {
  return card.exp_year * 12 + (card.exp_month - 1) >= now.getUTCFullYear() * 12 + now.getUTCMonth();
}
