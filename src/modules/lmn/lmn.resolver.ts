import {
  Arg,
  Args,
  Authorized,
  Ctx,
  Extensions,
  FieldResolver,
  ID,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { CustomerNode } from '../customers/customer.types.js';
import { signedPdfLink } from '../orders/receipt.service.js';
import { OrderNode } from '../orders/order.types.js';
import { clinicianApprove, clinicianDecline, listReviews } from './lmn-clinician.service.js';
import { lettersOf } from './lmn-letter.service.js';
import { getReview } from './lmn-review.service.js';
import { LmnDecisionPayload, LmnLetterType, LmnReviewConnection, LmnReviewsArgs, LmnReviewType } from './lmn.types.js';

/** LMN reviews: read by owners, admins and clinicians (and secret keys); decided by a clinician's console session only. */
@Authorized('lmn_reviews')
@Resolver(() => LmnReviewType)
export class LmnReviewResolver {
  @Query(() => LmnReviewConnection, {
    description: 'LMN reviews, newest first; status pending is the clinicians’ queue',
  })
  async lmnReviews(
    @Args() args: LmnReviewsArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<LmnReviewType>> {
    return toConnection(
      await listReviews(
        ctx,
        args.status,
        toPageRequest(args, (s) => s),
      ),
      args,
      (r) => LmnReviewType.from(r),
    );
  }

  @Mutation(() => LmnDecisionPayload, {
    description:
      "Approve (clinician's console session only): captures the HSA/FSA part, issues the letter, completes the order",
  })
  @Extensions({ ownTransactions: true }) // calls the processor: never inside one transaction
  async approveLmnReview(
    @Arg('id', () => ID) id: string,
    @Arg('condition', () => String, { nullable: true }) condition: string | null,
    @Ctx() { ctx }: GraphContext,
  ): Promise<LmnDecisionPayload> {
    const { review, letter } = await clinicianApprove(ctx, id, condition ? { condition } : {});
    return {
      review: LmnReviewType.from(review),
      letter: LmnLetterType.from(letter, await signedPdfLink(ctx, '/lmn-letters', letter.id)),
    };
  }

  @Mutation(() => LmnDecisionPayload, {
    description:
      "Decline (clinician's console session only): releases the HSA/FSA hold, refunds the regular part, fails the order",
  })
  @Extensions({ ownTransactions: true }) // calls the processor: never inside one transaction
  async declineLmnReview(
    @Arg('id', () => ID) id: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Ctx() { ctx }: GraphContext,
  ): Promise<LmnDecisionPayload> {
    return { review: LmnReviewType.from(await clinicianDecline(ctx, id, reason ? { reason } : {})), letter: null };
  }
}

/** An order's `lmnReview`. */
@Authorized('orders')
@Resolver(() => OrderNode)
export class OrderLmnReviewResolver {
  @FieldResolver(() => LmnReviewType, {
    nullable: true,
    description: 'The clinician review this order waits for or went through',
  })
  async lmnReview(@Root() order: OrderNode, @Ctx() { ctx }: GraphContext): Promise<LmnReviewType | null> {
    const id = order.record.lmn?.review?.id;
    return id ? LmnReviewType.from(await getReview(ctx, id)) : null;
  }
}

/** A customer's `letters` (by the customer's email). */
@Authorized('customers')
@Resolver(() => CustomerNode)
export class CustomerLettersResolver {
  @FieldResolver(() => [LmnLetterType], {
    description: 'Letters of medical necessity issued to this customer (by email), newest first',
  })
  async letters(@Root() customer: CustomerNode, @Ctx() { ctx }: GraphContext): Promise<LmnLetterType[]> {
    const letters = await lettersOf(ctx, customer.email);
    return Promise.all(letters.map(async (l) => LmnLetterType.from(l, await signedPdfLink(ctx, '/lmn-letters', l.id))));
  }
}
