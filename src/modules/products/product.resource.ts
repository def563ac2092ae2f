import type { EligibilityResult } from '../eligibility/eligibility.engine.js';
import type { Product } from './product.entity.js';

/** The spec's eligibility object (plus `requires_lmn`, `category` and `source`). */
export interface EligibilityResource {
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  status: EligibilityResult['status'];
  category: string | null;
  source: EligibilityResult['source'];
  message: string;
  checked_at: string;
}

export function toEligibilityResource(result: EligibilityResult, checkedAt: Date): EligibilityResource {
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
export function productEligibility(product: Product): EligibilityResult {
  return {
    hsa_fsa_eligible: product.hsaFsaEligible,
    requires_lmn: product.requiresLmn,
    status: product.requiresLmn ? 'requires_lmn' : product.hsaFsaEligible ? 'eligible' : 'not_eligible',
    category: product.eligibilityCategory,
    source: product.eligibilitySource as EligibilityResult['source'],
    message: product.eligibilityMessage,
  };
}

/** The spec's Product object: REST responses and event payloads. Images must be loaded. */
export function toProductResource(product: Product) {
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
    eligibility: toEligibilityResource(productEligibility(product), product.eligibilityCheckedAt),
    images: product.images.getItems().map((image) => ({ id: image.id, url: image.url, is_primary: image.position === 0 })),
    metadata: product.metadata,
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
}

export type ProductResource = ReturnType<typeof toProductResource>;
