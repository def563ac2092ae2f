import type { EligibilityResult } from '../eligibility/eligibility.engine.js';
import {
  iiasCategoryOf,
  statusOf,
  type DecisionSnapshot,
  type EligibilityChangeReason,
  type EligibilitySource,
} from './product-eligibility.js';
import type { Product } from './product.entity.js';
import type { ProductRecord } from './product.read-model.js';

/** The spec's eligibility object (plus `requires_lmn`, `category` and `source`). */
export interface EligibilityResource {
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  status: EligibilityResult['status'];
  category: string | null;
  source: EligibilitySource;
  message: string;
  checked_at: string;
}

/** A decision in the engine's result shape, from the engine or stored on a product (then possibly the merchant's). */
export type EligibilityDecision = Omit<EligibilityResult, 'source'> & { source: EligibilitySource };

export function toEligibilityResource(result: EligibilityDecision, checkedAt: Date): EligibilityResource {
  return {
    hsa_fsa_eligible: result.hsa_fsa_eligible,
    requires_lmn: result.requires_lmn,
    status: result.status,
    category: result.category,
    source: result.source,
    message: result.message,
    checked_at: checkedAt.toISOString(),
  };
}

/** The stored eligibility of `product` in the result shape of the engine. */
export function productEligibility(product: Product | ProductRecord): EligibilityDecision {
  return {
    hsa_fsa_eligible: product.hsaFsaEligible,
    requires_lmn: product.requiresLmn,
    status: statusOf(product),
    category: product.eligibilityCategory,
    source: product.eligibilitySource,
    message: product.eligibilityMessage,
  };
}

/**
 * A product's eligibility object: the decision (the merchant's while it has set one, `source`
 * `merchant` with who set it and when), the IIAS category its eligible amount counts under, and
 * the engine's own opinion as `suggested`.
 */
export function toProductEligibilityResource(product: Product | ProductRecord) {
  const { eligibilityOverride: override, eligibilitySuggested: suggested } = product;
  // Added onto the decision's object, not spread into a new one: a spread object is several times slower to build and to serialise, on every product read.
  return Object.assign(toEligibilityResource(productEligibility(product), product.eligibilityCheckedAt), {
    iias_category: iiasCategoryOf(product),
    set_by: override?.set_by ?? null,
    set_at: override?.set_at ?? null,
    // Field by field: jsonb hands keys back in its own order, and a read must answer the bytes a write did.
    suggested: {
      status: suggested.status,
      category: suggested.category,
      source: suggested.source,
      message: suggested.message,
    },
  });
}

/** The payload of `product.eligibility_changed`: the product, its decision before and after, and why it moved. */
export function toEligibilityChange(
  product: Product | ProductRecord,
  before: DecisionSnapshot,
  reason: EligibilityChangeReason,
) {
  const eligibility = toProductEligibilityResource(product);
  return {
    product_id: product.id,
    merchant_product_id: product.merchantProductId,
    name: product.name,
    upc_code_or_gtin: product.upcCodeOrGtin,
    previous_status: before.status,
    status: eligibility.status,
    previous_source: before.source,
    source: eligibility.source,
    previous_iias_category: before.iias_category,
    iias_category: eligibility.iias_category,
    reason,
    eligibility,
  };
}

/** The images of an entity (loaded) or of a read-model record, by position. */
export function productImages(
  product: Product | ProductRecord,
): readonly { id: number; url: string; position: number }[] {
  return Array.isArray(product.images) ? product.images : product.images.getItems();
}

/** The spec's Product object: REST responses and event payloads (from the entity with images loaded, or a read-model record). */
export function toProductResource(product: Product | ProductRecord) {
  return {
    id: product.id,
    object: 'product' as const,
    livemode: product.livemode,
    name: product.name,
    tagline: product.tagline,
    description: product.description,
    price: product.price,
    currency: product.currency,
    merchant_product_id: product.merchantProductId,
    upc_code_or_gtin: product.upcCodeOrGtin,
    status: product.status,
    hsa_fsa_eligibility: product.eligibilityOverride && {
      status: product.eligibilityOverride.status,
      category: product.eligibilityOverride.category,
    },
    eligibility: toProductEligibilityResource(product),
    images: productImages(product).map((image) => ({ id: image.id, url: image.url, is_primary: image.position === 0 })),
    metadata: product.metadata,
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
}

export type ProductResource = ReturnType<typeof toProductResource>;
