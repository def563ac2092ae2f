import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { scope } from '../../platform/context.js';
import { paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput } from '../../platform/validation.js';
import { TeamMember } from '../team/team-member.entity.js';
import { approveReview, declineReview, type Decider } from './lmn-review.service.js';
import { LmnReview, type LmnLetter, type LmnReviewStatus } from './lmn.entity.js';
import { approveReviewSchema, declineReviewSchema } from './lmn.schemas.js';

/** The permission only the clinician role holds. */
const DECIDE = 'lmn_reviews:write';

/**
 * The clinician deciding: only a console session whose member has the clinician role. No API
 * key decides, whatever it holds (a secret key holds every permission of the API, so the check is
 * on who acts, not only on what they hold): 403 `insufficient_permissions`.
 */
async function clinicianOf(ctx: ServiceContext): Promise<Decider> {
  const { actor, permissions } = ctx.principal;
  const refused = (why: string) =>
    new DomainError(
      'insufficient_permissions',
      `${why} Only a clinician signed in to the console approves or declines an LMN review.`,
      { details: { required_permission: DECIDE } },
    );
  if (actor?.kind !== 'user') throw refused('API keys cannot decide letters of medical necessity.');
  if (!permissions?.has(DECIDE)) throw refused('Your role lacks the lmn_reviews:write permission.');
  const member = await ctx.em.findOne(TeamMember, { id: actor.id, merchant: ctx.principal.merchantId });
  if (!member || member.role !== 'clinician' || !member.name || !member.credential || !member.npi)
    throw refused('This member has no clinician details (name, credential, NPI).');
  return {
    kind: 'clinician',
    clinician: { member_id: member.id, name: member.name, credential: member.credential, npi: member.npi },
  };
}

/** A clinician approves (console session only). */
export async function clinicianApprove(
  ctx: ServiceContext,
  id: string,
  input: unknown,
): Promise<{ review: LmnReview; letter: LmnLetter }> {
  const decider = await clinicianOf(ctx);
  const { condition } = parseInput(approveReviewSchema, input ?? {});
  return approveReview(ctx, id, condition, decider);
}

/** A clinician declines (console session only). */
export async function clinicianDecline(ctx: ServiceContext, id: string, input: unknown): Promise<LmnReview> {
  const decider = await clinicianOf(ctx);
  const { reason } = parseInput(declineReviewSchema, input ?? {});
  return declineReview(ctx, id, reason, decider);
}

/** The reviews of the caller's mode, newest first (the clinicians' queue: status pending). */
export function listReviews(
  ctx: ServiceContext,
  status: LmnReviewStatus | null | undefined,
  page: PageRequest<string>,
): Promise<Page<LmnReview>> {
  return paginate(ctx, LmnReview, { ...scope(ctx), ...(status && { status }) }, page, {
    cursorParam: 'after',
    beforeParam: 'before',
  });
}
