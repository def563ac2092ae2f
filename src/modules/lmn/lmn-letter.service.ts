import { scope, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { LmnLetter, type LmnClinician, type LmnItem, type LmnReview } from './lmn.entity.js';

/** A letter is valid for 12 months from its issue. */
export const LETTER_VALID_MONTHS = 12;

/** `at` plus `months` calendar months (UTC). */
export function addMonths(at: Date, months: number): Date {
  const d = new Date(at);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

/**
 * Whether the shopper (by email, in the caller's merchant and mode) holds letters valid at `at`
 * that together name every item of `productIds`: returns the covering letter (the most recently
 * issued one that names any of them), or null.
 */
export async function coveringLetter(
  ctx: ServiceContext,
  email: string,
  productIds: string[],
  at: Date = ctx.now(),
): Promise<LmnLetter | null> {
  const letters = await ctx.em.find(
    LmnLetter,
    { ...scope(ctx), customerEmail: email.toLowerCase(), issuedAt: { $lte: at }, expiresAt: { $gt: at } },
    { orderBy: { issuedAt: 'desc' } },
  );
  const named = new Set(letters.flatMap((l) => l.items.map((i) => i.product_id)));
  if (!productIds.every((id) => named.has(id))) return null;
  return letters.find((l) => l.items.some((i) => productIds.includes(i.product_id))) ?? null;
}

/** Issues the letter an approved review stands for (in the caller's unit of work). */
export function issueLetter(
  ctx: ServiceContext,
  review: LmnReview,
  condition: string,
  clinician: LmnLetter['clinician'],
  items: LmnItem[] = review.items,
): LmnLetter {
  const issuedAt = ctx.now();
  return ctx.em.create(LmnLetter, {
    ...scope(ctx),
    customer: review.customer,
    customerEmail: review.customerEmail,
    condition,
    items,
    clinician,
    reviewId: review.id,
    issuedAt,
    expiresAt: addMonths(issuedAt, LETTER_VALID_MONTHS),
    createdAt: issuedAt,
    updatedAt: issuedAt,
  });
}

/** A letter of the caller's merchant and mode. */
export async function getLetter(ctx: ServiceContext, id: string): Promise<LmnLetter> {
  const letter = await ctx.em.findOne(LmnLetter, { id, ...scope(ctx) });
  if (!letter) throw new DomainError('not_found', `No letter ${id}.`, { param: 'id' });
  return letter;
}

/** Every letter of a shopper (by email), most recent first. */
export function lettersOf(ctx: ServiceContext, email: string): Promise<LmnLetter[]> {
  return ctx.em.find(
    LmnLetter,
    { ...scope(ctx), customerEmail: email.toLowerCase() },
    { orderBy: { issuedAt: 'desc', id: 'desc' } },
  );
}

/** What the test helper signs a letter with: no clinician decided. */
export const TEST_HELPER_CLINICIAN: Omit<LmnClinician, 'member_id'> & { member_id: null } = {
  member_id: null,
  name: 'Test helper (test mode)',
  credential: 'TEST',
  npi: '0000000000',
};
