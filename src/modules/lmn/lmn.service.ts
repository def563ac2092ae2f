import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput } from '../../platform/validation.js';
import { getCustomer } from '../customers/customer.service.js';
import { getLetter, lettersOf } from './lmn-letter.service.js';
import { approveReview, declineReview, getReview } from './lmn-review.service.js';
import { toLetterResource, toLmnReviewResource } from './lmn.resource.js';
import { approveReviewSchema, declineReviewSchema } from './lmn.schemas.js';

/* What the REST routes call: reads of letters and reviews, and the test helpers' decisions. */

/** A customer's letters (by the customer's email). */
export async function customerLetters(ctx: ServiceContext, customerId: string) {
  const customer = await getCustomer(ctx, customerId);
  const letters = await lettersOf(ctx, customer.email);
  return { data: await Promise.all(letters.map((l) => toLetterResource(ctx, l))), has_more: false, next_cursor: null };
}

export async function letter(ctx: ServiceContext, id: string) {
  return toLetterResource(ctx, await getLetter(ctx, id));
}

export async function review(ctx: ServiceContext, id: string) {
  return toLmnReviewResource(await getReview(ctx, id));
}

function assertTestMode(ctx: ServiceContext): void {
  if (ctx.principal.livemode) throw DomainError.testModeOnly();
}

/** The test helper's approval (test mode only). */
export async function testApprove(ctx: ServiceContext, id: string, body: unknown) {
  assertTestMode(ctx);
  const { condition } = parseInput(approveReviewSchema, body ?? {});
  return toLmnReviewResource((await approveReview(ctx, id, condition, { kind: 'test_helper' })).review);
}

/** The test helper's decline (test mode only). */
export async function testDecline(ctx: ServiceContext, id: string, body: unknown) {
  assertTestMode(ctx);
  const { reason } = parseInput(declineReviewSchema, body ?? {});
  return toLmnReviewResource(await declineReview(ctx, id, reason, { kind: 'test_helper' }));
}
