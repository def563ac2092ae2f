import { Arg, Authorized, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { fromGlobalId } from '../../platform/relay/global-id.js';
import { previewRefund } from './refund.service.js';

@ObjectType({ description: 'What a refund would take from each card, before it is made' })
export class RefundPreview {
  @Field(() => Int, { description: 'Cents the refund would be (the rest of the order when no amount is given)' })
  amount!: number;
  @Field(() => Int, { description: 'Back to the HSA/FSA card' }) hsaAmount!: number;
  @Field(() => Int, { description: 'Back to the regular card' }) regularAmount!: number;
  @Field(() => Int, { description: 'Cents of the order still refundable' }) remaining!: number;
  @Field() currency!: string;
}

/** The console's refund dialog shows the split before the refund is confirmed (the same rule createRefund applies). */
@Authorized('refunds:read')
@Resolver(() => RefundPreview)
export class RefundPreviewResolver {
  @Query(() => RefundPreview, {
    description:
      'The HSA/FSA and regular split of a refund of this order, without making it (errors as createRefund would answer)',
  })
  async refundPreview(
    @Arg('orderId', () => ID) orderId: string,
    @Arg('amount', () => Int, { nullable: true }) amount: number | null,
    @Ctx() { ctx }: GraphContext,
  ): Promise<RefundPreview> {
    const p = await previewRefund(ctx, fromGlobalId(orderId, 'Order', 'orderId'), amount ?? undefined);
    return Object.assign(new RefundPreview(), {
      amount: p.amount,
      hsaAmount: p.hsa_amount,
      regularAmount: p.regular_amount,
      remaining: p.remaining,
      currency: p.currency,
    });
  }
}
