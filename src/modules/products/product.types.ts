import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLISODateTime } from 'type-graphql';
import { connectionType, CreatedRangeArgs } from '../../platform/relay/connection.js';
import { toGlobalId } from '../../platform/relay/global-id.js';
import { Node } from '../../platform/relay/node.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';
import { ELIGIBILITY_STATUSES } from '../eligibility/eligibility.types.js';
import {
  iiasCategoryOf,
  IIAS_CATEGORIES,
  OVERRIDE_STATUSES,
  statusOf,
  type SuggestedEligibility,
} from './product-eligibility.js';
import { PRODUCT_STATUSES, type Product } from './product.entity.js';
import type { ProductRecord } from './product.read-model.js';
import { productImages, type EligibilityDecision } from './product.resource.js';

export const ProductStatusEnum = graphqlEnum(
  'ProductStatus',
  PRODUCT_STATUSES,
  'active: for sale; inactive: temporarily unavailable; archived: removed (soft-deleted)',
);

export const EligibilityStatusEnum = graphqlEnum(
  'EligibilityStatus',
  ELIGIBILITY_STATUSES,
  'requires_review: the name alone cannot decide (e.g. a tinted moisturizer with SPF); not payable by HSA/FSA card until a person checks the label',
);

export const EligibilitySourceEnum = graphqlEnum(
  'EligibilitySource',
  ['upc', 'name', 'none', 'merchant'] as const,
  'What the decision was based on (merchant: its own override)',
);

export const EngineSourceEnum = graphqlEnum(
  'EligibilityEngineSource',
  ['upc', 'name', 'none'] as const,
  'What the engine based its opinion on',
);

export const OverrideStatusEnum = graphqlEnum(
  'EligibilityOverrideStatus',
  OVERRIDE_STATUSES,
  "What a merchant can decide (requires_review is the engine's alone)",
);

export const IiasCategoryEnum = graphqlEnum(
  'IiasCategory',
  IIAS_CATEGORIES,
  'IIAS category of an eligible amount: rx, vision, clinic, dental, otc (the rest)',
);

@ObjectType({ description: "The engine's own opinion of a product, kept beside the merchant's decision" })
export class SuggestedEligibilityNode {
  @Field(() => EligibilityStatusEnum) status!: ValueOf<typeof EligibilityStatusEnum>;
  @Field(() => String, { nullable: true }) category!: string | null;
  @Field(() => EngineSourceEnum) source!: ValueOf<typeof EngineSourceEnum>;
  @Field() message!: string;

  static from(s: SuggestedEligibility): SuggestedEligibilityNode {
    return Object.assign(new SuggestedEligibilityNode(), {
      status: s.status,
      category: s.category,
      source: s.source,
      message: s.message,
    });
  }
}

@ObjectType({ description: 'HSA/FSA eligibility decision and its explanation' })
export class Eligibility {
  @Field() hsaFsaEligible!: boolean;
  @Field({ description: 'Eligible only with an approved letter of medical necessity' }) requiresLmn!: boolean;
  @Field(() => EligibilityStatusEnum) status!: ValueOf<typeof EligibilityStatusEnum>;
  @Field(() => String, { nullable: true }) category!: string | null;
  @Field(() => EligibilitySourceEnum) source!: ValueOf<typeof EligibilitySourceEnum>;
  @Field() message!: string;
  @Field(() => GraphQLISODateTime) checkedAt!: Date;
  @Field(() => IiasCategoryEnum, {
    nullable: true,
    description: "A product's: the IIAS category its eligible amount counts under (null when not eligible)",
  })
  iiasCategory!: ValueOf<typeof IiasCategoryEnum> | null;
  @Field(() => String, {
    nullable: true,
    description: 'Who set the merchant decision (api_key:<id>, import, eligibility_list)',
  })
  setBy!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the merchant decision was set' })
  setAt!: Date | null;
  @Field(() => SuggestedEligibilityNode, { nullable: true, description: "A product's: the engine's own opinion" })
  suggested!: SuggestedEligibilityNode | null;

  static from(result: EligibilityDecision, checkedAt: Date): Eligibility {
    return Object.assign(new Eligibility(), {
      hsaFsaEligible: result.hsa_fsa_eligible,
      requiresLmn: result.requires_lmn,
      status: result.status,
      category: result.category,
      source: result.source,
      message: result.message,
      checkedAt,
      iiasCategory: null,
      setBy: null,
      setAt: null,
      suggested: null,
    });
  }

  /**
   * A product's eligibility, with its IIAS category, who set it and the engine's opinion: the
   * fields of `toProductEligibilityResource` read straight from the product (no REST shape and
   * timestamp strings in between, for every product of a page).
   */
  static ofProduct(p: Product | ProductRecord): Eligibility {
    const override = p.eligibilityOverride;
    return Object.assign(new Eligibility(), {
      hsaFsaEligible: p.hsaFsaEligible,
      requiresLmn: p.requiresLmn,
      status: statusOf(p),
      category: p.eligibilityCategory,
      source: p.eligibilitySource,
      message: p.eligibilityMessage,
      checkedAt: p.eligibilityCheckedAt,
      iiasCategory: iiasCategoryOf(p),
      setBy: override?.set_by ?? null,
      setAt: override?.set_at ? new Date(override.set_at) : null,
      suggested: SuggestedEligibilityNode.from(p.eligibilitySuggested),
    });
  }
}

@ObjectType({ description: "The merchant's own HSA/FSA decision, authoritative while set" })
export class EligibilityOverrideNode {
  @Field(() => OverrideStatusEnum) status!: ValueOf<typeof OverrideStatusEnum>;
  @Field(() => IiasCategoryEnum, { nullable: true }) category!: ValueOf<typeof IiasCategoryEnum> | null;
}

@InputType({ description: "The merchant's own HSA/FSA decision; null hands the decision back to the engine" })
export class EligibilityOverrideInput {
  @Field(() => OverrideStatusEnum) status!: ValueOf<typeof OverrideStatusEnum>;
  @Field(() => IiasCategoryEnum, { nullable: true }) category?: ValueOf<typeof IiasCategoryEnum> | null;
}

@ObjectType()
export class ProductImageNode {
  @Field(() => Int) id!: number;
  @Field() url!: string;
  @Field() isPrimary!: boolean;
}

@ObjectType('Product', { implements: Node, description: 'A catalog product with its HSA/FSA eligibility' })
export class ProductNode extends Node {
  @Field(() => Int, { description: 'The numeric id used by the REST API' }) productId!: number;
  @Field() livemode!: boolean;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) tagline!: string | null;
  @Field(() => String, { nullable: true, description: 'Markdown' }) description!: string | null;
  @Field(() => Int, { description: 'Unit price in cents' }) price!: number;
  @Field({ description: 'ISO 4217, upper case' }) currency!: string;
  @Field(() => String, { nullable: true }) merchantProductId!: string | null;
  @Field(() => String, { nullable: true }) upcCodeOrGtin!: string | null;
  @Field(() => ProductStatusEnum) status!: ValueOf<typeof ProductStatusEnum>;
  @Field(() => EligibilityOverrideNode, {
    nullable: true,
    description: "The merchant's own decision, null when the engine decides",
  })
  hsaFsaEligibility!: EligibilityOverrideNode | null;
  @Field(() => Eligibility) eligibility!: Eligibility;
  @Field(() => [ProductImageNode]) images!: ProductImageNode[];
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;

  /** The graph's view of a product entity (images loaded) or read-model record. */
  static from(p: Product | ProductRecord): ProductNode {
    return Object.assign(new ProductNode(), {
      id: toGlobalId('Product', p.id),
      productId: p.id,
      livemode: p.livemode,
      name: p.name,
      tagline: p.tagline,
      description: p.description,
      price: p.price,
      currency: p.currency,
      merchantProductId: p.merchantProductId,
      upcCodeOrGtin: p.upcCodeOrGtin,
      status: p.status,
      hsaFsaEligibility:
        p.eligibilityOverride &&
        Object.assign(new EligibilityOverrideNode(), {
          status: p.eligibilityOverride.status,
          category: p.eligibilityOverride.category,
        }),
      eligibility: Eligibility.ofProduct(p),
      images: productImages(p).map((i) =>
        Object.assign(new ProductImageNode(), { id: i.id, url: i.url, isPrimary: i.position === 0 }),
      ),
      metadata: p.metadata,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    });
  }
}

export const ProductConnection = connectionType('Product', ProductNode);

@ArgsType()
export class ProductsArgs extends CreatedRangeArgs {
  @Field(() => ProductStatusEnum, { nullable: true, description: 'Archived products appear only when asked for' })
  status?: ValueOf<typeof ProductStatusEnum>;
  @Field(() => Boolean, { nullable: true }) hsaFsaEligible?: boolean;
  @Field(() => String, { nullable: true }) merchantProductId?: string;
}

/** The product fields both inputs take alike, each optional (the schema shows them only in the two inputs). */
@InputType()
abstract class ProductOptionalFields {
  @Field(() => String, { nullable: true }) tagline?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) merchantProductId?: string | null;
  @Field(() => String, { nullable: true }) upcCodeOrGtin?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field(() => ProductStatusEnum, { nullable: true }) status?: ValueOf<typeof ProductStatusEnum>;
  @Field(() => EligibilityOverrideInput, {
    nullable: true,
    description: "The merchant's own HSA/FSA decision (authoritative); null returns to the engine",
  })
  hsaFsaEligibility?: EligibilityOverrideInput | null;
}

@InputType()
export class CreateProductInput extends ProductOptionalFields {
  @Field() name!: string;
  @Field(() => Int) price!: number;
  @Field() currency!: string;
  @Field(() => [String], { nullable: true, description: 'Up to 10 image URLs; the first is primary' })
  images?: string[];
}

@InputType({ description: 'Fields to change; omitted fields are kept, null clears an optional one' })
export class UpdateProductInput extends ProductOptionalFields {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Int, { nullable: true }) price?: number;
  @Field(() => String, { nullable: true }) currency?: string;
  @Field(() => [String], { nullable: true }) images?: string[];
}

@InputType()
export class CheckEligibilityInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) upcCodeOrGtin?: string;
  @Field(() => ID, { nullable: true, description: 'Global id of a stored product' }) productId?: string;
}

/** The base of the products mutations' payloads: `userErrors` with these codes. */
const ProductMutationPayload = mutationPayload('Product', [
  'invalid_request',
  'validation_error',
  'invalid_price',
  'invalid_currency',
  'invalid_state',
  'not_found',
]);

@ObjectType()
export class ProductPayload extends ProductMutationPayload {
  @Field(() => ProductNode, { nullable: true }) product!: ProductNode | null;
}

@ObjectType()
export class CreateProductPayload extends ProductPayload {}

@ObjectType()
export class UpdateProductPayload extends ProductPayload {}

@ObjectType()
export class ArchiveProductPayload extends ProductPayload {}

@ObjectType({ description: 'One eligibility check' })
export class EligibilityCheckResult {
  @Field(() => Eligibility) eligibility!: Eligibility;
  @Field(() => ProductNode, { nullable: true, description: 'The product checked, when productId was given' })
  product!: ProductNode | null;
}

@ObjectType()
export class CheckEligibilityPayload extends ProductMutationPayload {
  @Field(() => Eligibility, { nullable: true }) eligibility!: Eligibility | null;
  @Field(() => ProductNode, { nullable: true, description: 'The product checked, when productId was given' })
  product!: ProductNode | null;
}

@ObjectType()
export class CheckEligibilityBatchPayload extends ProductMutationPayload {
  @Field(() => [EligibilityCheckResult], { nullable: true, description: 'One result per item, in the order given' })
  results!: EligibilityCheckResult[] | null;
}

@ObjectType()
export class EligibilityListUnmatchedRow {
  @Field(() => Int) line!: number;
  @Field() upc!: string;
}

@ObjectType({ description: 'What an eligibility list changed' })
export class ImportEligibilityListPayload extends ProductMutationPayload {
  @Field(() => Int, { nullable: true }) rows!: number | null;
  @Field(() => Int, { nullable: true, description: 'Rows whose barcode is on at least one product' }) matched!:
    number | null;
  @Field(() => Int, { nullable: true }) productsChanged!: number | null;
  @Field(() => Int, { nullable: true }) productsUnchanged!: number | null;
  @Field(() => [EligibilityListUnmatchedRow], {
    nullable: true,
    description: 'Rows whose barcode is on none of your products',
  })
  unmatched!: EligibilityListUnmatchedRow[] | null;
}
