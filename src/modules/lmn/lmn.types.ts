import { ArgsType, Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';
import { connectionType, ConnectionArgs } from '../../platform/relay/connection.js';
import { LMN_REVIEW_STATUSES, type LmnLetter, type LmnReview } from './lmn.entity.js';

export const LmnReviewStatusEnum = graphqlEnum(
  'LmnReviewStatus',
  LMN_REVIEW_STATUSES,
  'pending until a clinician approves or declines, or it expires (LMN_REVIEW_TIMEOUT_HOURS)',
);

@ObjectType('LmnItem', { description: 'An item a review asks about or a letter covers' })
export class LmnItemType {
  @Field({ description: "The merchant's product id" }) productId!: string;
  @Field() name!: string;
}

const items = (list: { product_id: string; name: string }[]) =>
  list.map((i) => Object.assign(new LmnItemType(), { productId: i.product_id, name: i.name }));

@ObjectType('LmnReview', {
  description:
    "A clinician's review of a shopper's request for a letter of medical necessity; the HSA/FSA part stays authorised until it is decided",
})
export class LmnReviewType {
  @Field(() => ID, { description: 'lmnr_…' }) id!: string;
  @Field(() => LmnReviewStatusEnum) status!: ValueOf<typeof LmnReviewStatusEnum>;
  @Field(() => GraphQLJSONObject, {
    description: "The shopper's questionnaire: condition, recommended_by_provider, provider_name, attestation",
  })
  answers!: Record<string, unknown>;
  @Field(() => [LmnItemType]) items!: LmnItemType[];
  @Field(() => GraphQLJSONObject, { description: 'email, first_name, last_name' }) customer!: Record<string, unknown>;
  @Field({ description: 'ord_…' }) orderId!: string;
  @Field(() => Int, { description: 'Cents of the HSA/FSA card authorised and not captured' }) amountHeld!: number;
  @Field() currency!: string;
  @Field({ description: 'held, captured or released' }) holdStatus!: string;
  @Field(() => String, { nullable: true, description: 'The condition the letter names (approved)' }) condition!:
    string | null;
  @Field(() => String, { nullable: true, description: 'declined, expired, or the clinician’s reason' }) reason!:
    string | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'kind (clinician, test_helper, system) and, for a clinician, name, credential, npi',
  })
  decidedBy!: Record<string, unknown> | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) decidedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'lmn_… once approved' }) letterId!: string | null;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field(() => GraphQLISODateTime) createdAt!: Date;

  static from(r: LmnReview): LmnReviewType {
    return Object.assign(new LmnReviewType(), {
      id: r.id,
      status: r.status,
      answers: r.answers,
      items: items(r.items),
      customer: r.customer,
      orderId: r.orderId,
      amountHeld: r.hold.amount,
      currency: r.hold.currency,
      holdStatus: r.hold.state,
      condition: r.condition,
      reason: r.reason,
      decidedBy: r.decidedBy,
      decidedAt: r.decidedAt,
      letterId: r.letterId,
      expiresAt: r.expiresAt,
      createdAt: r.createdAt,
    });
  }
}

@ObjectType('LmnClinician')
export class LmnClinicianType {
  @Field() name!: string;
  @Field() credential!: string;
  @Field() npi!: string;
}

@ObjectType('LmnLetter', {
  description: 'A letter of medical necessity a clinician issued: valid 12 months for the items it names',
})
export class LmnLetterType {
  @Field(() => ID, { description: 'lmn_…' }) id!: string;
  @Field() condition!: string;
  @Field(() => [LmnItemType]) items!: LmnItemType[];
  @Field(() => LmnClinicianType) clinician!: LmnClinicianType;
  @Field(() => GraphQLISODateTime) issuedAt!: Date;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field({ description: 'Signed link to the PDF, valid one hour' }) pdfUrl!: string;

  static from(l: LmnLetter, pdfUrl: string): LmnLetterType {
    return Object.assign(new LmnLetterType(), {
      id: l.id,
      condition: l.condition,
      items: items(l.items),
      clinician: Object.assign(new LmnClinicianType(), {
        name: l.clinician.name,
        credential: l.clinician.credential,
        npi: l.clinician.npi,
      }),
      issuedAt: l.issuedAt,
      expiresAt: l.expiresAt,
      pdfUrl,
    });
  }
}

export const LmnReviewConnection = connectionType('LmnReview', LmnReviewType);

@ArgsType()
export class LmnReviewsArgs extends ConnectionArgs {
  @Field(() => LmnReviewStatusEnum, { nullable: true, description: 'Only reviews in this status (the queue: pending)' })
  status?: ValueOf<typeof LmnReviewStatusEnum> | null;
}

@ObjectType('LmnDecisionPayload')
export class LmnDecisionPayload extends mutationPayload('LmnReview', [
  'validation_error',
  'invalid_state',
  'not_found',
]) {
  @Field(() => LmnReviewType, { nullable: true }) review!: LmnReviewType | null;
  @Field(() => LmnLetterType, { nullable: true }) letter!: LmnLetterType | null;
}
